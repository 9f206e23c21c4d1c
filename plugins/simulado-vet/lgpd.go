package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// ExportFile is one file of a member's data export.
type ExportFile = sdk.ExportFile

// exportUser returns the member's attempts (simulados and quiz rounds) with
// every question's answer, as JSON.
func exportUser(ctx context.Context, host *sdk.Host, userID string) ([]ExportFile, error) {
	var attempts []map[string]any
	if err := host.Query(ctx, &attempts, `SELECT a.id, a.mode, a.areas, a.size, a.status, a.started_at, a.deadline, a.submitted_at,
			a.timed_out, a.score, a.coins,
			coalesce((SELECT jsonb_agg(jsonb_build_object('pos', q.pos, 'question_id', q.question_id, 'area', q.area,
				'answer', q.answer, 'correct', q.correct, 'marked', q.marked, 'answered_at', q.answered_at) ORDER BY q.pos)
				FROM attempt_questions q WHERE q.attempt_id = a.id), '[]'::jsonb) AS questions
		FROM attempts a WHERE a.user_id = $1 ORDER BY a.started_at`, userID); err != nil {
		return nil, fmt.Errorf("export attempts: %w", err)
	}
	data, err := json.MarshalIndent(map[string]any{"tentativas": attempts}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	return []ExportFile{{Name: "simulado-vet.json", Data: data}}, nil
}

// deleteUser removes the member's attempts (their answers go with them)
// and daily VetCoins counters; the question bank is not theirs.
func deleteUser(ctx context.Context, host *sdk.Host, userID string) error {
	if _, err := host.Exec(ctx, `DELETE FROM attempts WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("delete attempts: %w", err)
	}
	if _, err := host.Exec(ctx, `DELETE FROM daily_coins WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("delete daily counters: %w", err)
	}
	return nil
}
