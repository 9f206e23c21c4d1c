package main

import "github.com/vetclube/vetclube/plugins/sdk"

// Manifest describes the medical record tool.
var Manifest = sdk.Manifest{
	ID:             "prontuario-vet",
	Name:           "Prontuário Vet",
	Description:    "Prontuário dos seus pacientes: consultas com sinais vitais, vacinas com lembrete da próxima dose, receitas em PDF, exames e histórico de peso.",
	Version:        "1.0.0",
	MinCoreVersion: "1.0.0",
	Kind:           sdk.KindTool,
	Icon:           "stethoscope",
	Category:       "Clínica",
	Slug:           "prontuario-vet",
	Access:         sdk.AccessUser,
	UIKind:         sdk.UICustom,
	Limits:         []string{limitName},
}

// limitName is the trial limit on active patients.
const limitName = "patients"

// Migrations create the plugin's tables in its own schema. Every table
// carries user_id, and every query filters on it.
var Migrations = []sdk.Migration{{Version: 1, Name: "patients and records", SQL: `
CREATE TABLE member_counts (
    user_id uuid PRIMARY KEY,
    active  integer NOT NULL DEFAULT 0 CHECK (active >= 0)
);
CREATE TABLE patients (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id     uuid NOT NULL,
    name        text NOT NULL CHECK (name <> '' AND char_length(name) <= 80),
    species     text NOT NULL,
    data        jsonb NOT NULL,
    search      text NOT NULL,
    archived_at timestamptz,
    version     integer NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX patients_user_idx ON patients (user_id, archived_at, name);
CREATE TABLE patient_revisions (
    id          bigserial PRIMARY KEY,
    patient_id  uuid NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
    user_id     uuid NOT NULL,
    edited_by   text NOT NULL,
    edited_at   timestamptz NOT NULL DEFAULT now(),
    previous    jsonb NOT NULL
);
CREATE INDEX patient_revisions_idx ON patient_revisions (patient_id, edited_at DESC);
CREATE TABLE records (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id          uuid NOT NULL,
    patient_id       uuid NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
    kind             text NOT NULL CHECK (kind IN ('consulta','vacina','prescricao','exame','peso','nota')),
    occurred_on      date NOT NULL,
    data             jsonb NOT NULL,
    next_dose        date,
    reminder_sent_at timestamptz,
    version          integer NOT NULL DEFAULT 1,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX records_patient_idx ON records (user_id, patient_id, occurred_on DESC, created_at DESC);
CREATE INDEX records_next_dose_idx ON records (user_id, next_dose) WHERE next_dose IS NOT NULL;
CREATE TABLE record_revisions (
    id                   bigserial PRIMARY KEY,
    record_id            uuid NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    user_id              uuid NOT NULL,
    edited_by            text NOT NULL,
    edited_at            timestamptz NOT NULL DEFAULT now(),
    previous_occurred_on date NOT NULL,
    previous             jsonb NOT NULL
);
CREATE INDEX record_revisions_idx ON record_revisions (record_id, edited_at DESC);`}}
