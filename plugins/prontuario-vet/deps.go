package main

import (
	"context"
	"errors"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// limitDecision is the host's answer to "may this member have one more?".
type limitDecision struct {
	Allowed bool
	Limit   int // -1: unlimited
	Used    int
	Reason  string
}

// fileInfo is a tool file of the signed-in member.
type fileInfo struct {
	ID, Kind, ContentType, Name string
	Data                        []byte
}

var errFileNotFound = errors.New("file not found")

// services are the host calls the handler depends on besides SQL, so the
// handler reads the same whichever host version serves it.
type services struct {
	checkLimit func(ctx context.Context, name string, used int) (limitDecision, error)
	file       func(ctx context.Context, id string) (fileInfo, error)
	vet        func(ctx context.Context) (vetInfo, error)
}

// vetInfo is who signs a prescription.
type vetInfo struct{ Name, CRMV string }

func hostServices(host *sdk.Host) services {
	return services{
		checkLimit: func(ctx context.Context, name string, used int) (limitDecision, error) {
			lim, err := host.CheckLimit(ctx, name, used)
			if err != nil {
				return limitDecision{}, err
			}
			return limitDecision{Allowed: lim.Allowed, Limit: lim.Limit, Used: lim.Used, Reason: lim.Reason}, nil
		},
		file: func(ctx context.Context, id string) (fileInfo, error) {
			f, err := host.File(ctx, id)
			if errors.Is(err, sdk.ErrNotFound) {
				return fileInfo{}, errFileNotFound
			}
			if err != nil {
				return fileInfo{}, err
			}
			return fileInfo{ID: f.ID, Kind: f.Kind, ContentType: f.ContentType, Name: f.Name}, nil
		},
		vet: func(ctx context.Context) (vetInfo, error) {
			p, err := host.CurrentProfile(ctx)
			if err != nil {
				return vetInfo{}, err
			}
			return vetInfo{Name: strings.TrimSpace(p.FirstName + " " + p.LastName), CRMV: p.CRMV}, nil
		},
	}
}
