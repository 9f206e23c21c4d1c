package content

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Hooks let a content type's plugin take part in writes (the plugin host
// implements them with the plugin's ValidateContent, BeforeTransition and
// AfterPublish calls). The store calls them outside its transactions, so a
// slow plugin never holds a row lock; the transaction re-checks the version
// and state afterwards, so nothing a hook saw can be overtaken unnoticed.
type Hooks interface {
	// ValidateContent returns the plugin's own per-field pt-BR errors for
	// an input that passed the core's checks, and the values of the type's
	// computed fields.
	ValidateContent(ctx context.Context, t *Type, in Input) (Check, error)
	// BeforeTransition may refuse moving it to the state to, returning a
	// *core.Error whose message is the pt-BR reason ("O vídeo ainda está
	// sendo processado.").
	BeforeTransition(ctx context.Context, it Item, to Status) error
	// AfterPublish observes a publish that committed (side effects run
	// here or are queued; the publish itself cannot be undone by it).
	AfterPublish(ctx context.Context, it Item)
}

// Check is a type plugin's verdict on an input.
type Check struct {
	// Errors are pt-BR messages by field name (nil: none).
	Errors FieldErrors
	// Computed holds values of the type's computed fields; the core checks
	// them against their declarations like any other value.
	Computed map[string]any
}

// NoHooks is Hooks for types without a plugin: every write is accepted.
type NoHooks struct{}

func (NoHooks) ValidateContent(context.Context, *Type, Input) (Check, error) { return Check{}, nil }
func (NoHooks) BeforeTransition(context.Context, Item, Status) error         { return nil }
func (NoHooks) AfterPublish(context.Context, Item)                           {}

// Event is one write to an item, as the audit log keeps it.
type Event struct {
	ItemID   string
	Type     string
	Revision int
	// Action is the workflow action ("approve") for transitions made by the
	// workflow, else the revision's action (create, update, publish, ...).
	Action  string
	Channel Channel
	ActorID string
	IP      string
	From    Status // "" on create
	To      Status
	Reason  string
	At      time.Time
}

// Recorder writes an audit event inside a write's transaction, so that an
// item never changes without its event (and no event outlives a rolled-back
// write).
type Recorder interface {
	RecordTx(ctx context.Context, tx pgx.Tx, e Event) error
}

type noRecorder struct{}

func (noRecorder) RecordTx(context.Context, pgx.Tx, Event) error { return nil }
