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

// defaultTrialPatients is the trial limit when the host has no limit API.
const defaultTrialPatients = 10

// limitReason is the pt-BR refusal of one more active patient.
func limitReason(limit int) string {
	return "Você atingiu o limite de " + sdk.FormatNumber(float64(limit), 0) +
		" pacientes ativos do período de teste. Arquive um paciente ou assine o VetClube Premium para cadastrar pacientes sem limite."
}

func hostServices(host *sdk.Host) services {
	return services{
		checkLimit: func(ctx context.Context, _ string, used int) (limitDecision, error) {
			if sdk.UserFrom(ctx).Subscription == "premium" {
				return limitDecision{Allowed: true, Limit: -1, Used: used}, nil
			}
			if used >= defaultTrialPatients {
				return limitDecision{Allowed: false, Limit: defaultTrialPatients, Used: used, Reason: limitReason(defaultTrialPatients)}, nil
			}
			return limitDecision{Allowed: true, Limit: defaultTrialPatients, Used: used}, nil
		},
		// Without the host's file API a file id cannot be checked here; the
		// core's file routes answer only the owner's files anyway.
		file: func(_ context.Context, id string) (fileInfo, error) {
			return fileInfo{ID: id, Kind: "file", Name: "Anexo"}, nil
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
