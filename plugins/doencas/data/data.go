// Package data holds the diseases reference VetClube starts with, written in
// pt-BR for the project: the doencas plugin declares its fields and the
// development seed publishes each entry once through the editorial
// workflow. Editors maintain the published reference in the backoffice
// afterwards; this file is only the first edition.
package data

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed doencas.json
var raw []byte

// Disease is one entry of the first edition. Field names are the content
// type's (plugins/doencas), so Fields is what an editor would save.
type Disease struct {
	Slug             string   `json:"slug"`
	Title            string   `json:"title"`
	Summary          string   `json:"summary"`
	Synonyms         []string `json:"synonyms"`
	Species          []string `json:"species"`
	BodySystem       string   `json:"body_system"`
	AgentType        string   `json:"agent_type"`
	Agent            string   `json:"agent"`
	Transmission     string   `json:"transmission"`
	Zoonotic         bool     `json:"zoonotic"`
	Signs            string   `json:"sinais_clinicos"`
	Diagnosis        string   `json:"diagnostico"`
	Treatment        string   `json:"tratamento"`
	Prevention       string   `json:"prevencao"`
	Notifiable       bool     `json:"notifiable"`
	NotificationList string   `json:"notification_list"`
	NotificationNote string   `json:"notification_note"`
	WOAHListed       bool     `json:"woah_listed"`
	References       string   `json:"references"`
}

// All returns the first edition, in the file's order.
func All() ([]Disease, error) {
	var out []Disease
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("doencas data: %w", err)
	}
	return out, nil
}

// Fields are the entry's values keyed by the content type's field names
// (empty optional values left out).
func (d Disease) Fields() map[string]any {
	f := map[string]any{
		"synonyms": d.Synonyms, "species": d.Species, "body_system": d.BodySystem, "agent_type": d.AgentType,
		"agent": d.Agent, "transmission": d.Transmission, "zoonotic": d.Zoonotic, "sinais_clinicos": d.Signs,
		"diagnostico": d.Diagnosis, "tratamento": d.Treatment, "prevencao": d.Prevention, "notifiable": d.Notifiable,
		"woah_listed": d.WOAHListed, "references": d.References,
	}
	if d.NotificationList != "" {
		f["notification_list"] = d.NotificationList
	}
	if d.NotificationNote != "" {
		f["notification_note"] = d.NotificationNote
	}
	return f
}
