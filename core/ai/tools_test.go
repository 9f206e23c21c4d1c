package ai_test

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/ai"
	"github.com/vetclube/vetclube/core/ai/fakeoai"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/points"
)

// hostCalculators is the app's adapter: the real plugin host running the
// real calculators plugin.
type hostCalculators struct{ m *pluginhost.Manager }

func (c hostCalculators) FormTools() []ai.CalcTool {
	var out []ai.CalcTool
	for _, t := range c.m.FormTools() {
		out = append(out, ai.CalcTool{ID: t.ID, UISchema: t.UISchema})
	}
	return out
}

func (c hostCalculators) Call(ctx context.Context, userID, toolID, action string, args []byte) (int, []byte, error) {
	return c.m.CallForm(ctx, core.Principal{UserID: userID, Roles: []string{core.RoleUser}}, toolID, action, args)
}

// withCalculators builds plugins/calculadoras and runs it under a plugin host.
func withCalculators(t *testing.T) func(*ai.Options) {
	t.Helper()
	dir := t.TempDir()
	root, _ := filepath.Abs("../..")
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "calculadoras"), "./plugins/calculadoras")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build calculadoras: %v\n%s", err, out)
	}
	if err := pluginhost.RecordChecksum(filepath.Join(dir, "calculadoras")); err != nil {
		t.Fatal(err)
	}
	return func(o *ai.Options) {
		// The host needs the database the fixture made: started lazily below.
		o.Calculators = &lazyHost{dir: dir, t: t}
	}
}

type lazyHost struct {
	dir string
	t   *testing.T
	h   *hostCalculators
	f   *fixture
}

func (l *lazyHost) host() hostCalculators {
	if l.h == nil {
		m := pluginhost.New(pluginhost.Options{Dir: l.dir}, l.f.pool, points.New(l.f.pool), slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
		if err := m.Start(context.Background()); err != nil {
			l.t.Fatal(err)
		}
		l.t.Cleanup(func() { _ = m.Close() })
		deadline := time.Now().Add(20 * time.Second)
		for len(m.FormTools()) == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		l.h = &hostCalculators{m}
	}
	return *l.h
}

func (l *lazyHost) FormTools() []ai.CalcTool { return l.host().FormTools() }
func (l *lazyHost) Call(ctx context.Context, u, id, a string, args []byte) (int, []byte, error) {
	return l.host().Call(ctx, u, id, a, args)
}

func newToolFixture(t *testing.T) *fixture {
	tune := withCalculators(t)
	var lh *lazyHost
	f := newFixture(t, func(o *ai.Options) { tune(o); lh = o.Calculators.(*lazyHost) })
	lh.f = f
	return f
}

func TestToolCallsRunTheCalculator(t *testing.T) {
	f := newToolFixture(t)
	u := f.user(t)
	conv := f.conv(t, u)
	f.fake.Push(
		// Bad arguments first (a negative weight), then good ones.
		fakeoai.Script{ToolCalls: []fakeoai.ToolCall{{ID: "call_1", Name: "calculadora_dose", Arguments: `{"especie":"cao","peso":-5,"dose_mg_kg":5,"concentracao":50}`}}},
		fakeoai.Script{ToolCalls: []fakeoai.ToolCall{{ID: "call_2", Name: "calculadora_dose", Arguments: `{"especie":"cao","peso":10,"dose_mg_kg":5,"concentracao":50}`}}},
	)
	a, rec := f.ask(t, u, conv, "Qual a dose de meloxicam para um cão de 10 kg?")
	if a.Status != "complete" {
		t.Fatalf("status %q %q", a.Status, a.Error)
	}
	if len(a.Tools) != 2 || a.Tools[0].Error == "" || a.Tools[1].Error != "" {
		t.Fatalf("tools %+v", a.Tools)
	}
	if !strings.Contains(a.Tools[0].Error, "peso") {
		t.Fatalf("the plugin's pt-BR refusal: %q", a.Tools[0].Error)
	}
	if !strings.HasPrefix(a.Tools[1].Result, "Cálculo: dose de medicamento") || !strings.Contains(a.Tools[1].Result, "50") {
		t.Fatalf("result card %q", a.Tools[1].Result)
	}
	reqs := f.fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !contains(reqs[0].Tools, "calculadora_dose") || !contains(reqs[0].Tools, "calculadora_fluidoterapia") {
		t.Fatalf("functions offered: %v", reqs[0].Tools)
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != "tool" || last.ToolCallID != "call_1" || !strings.Contains(last.Content, `"error"`) {
		t.Fatalf("the model did not see the tool error: %+v", last)
	}
	// The final answer (composed by the fake from the tool results) is text.
	if !strings.Contains(a.Content, "Resultado da calculadora") {
		t.Fatalf("answer %q", a.Content)
	}
	if !contains(rec.names(), "tool") {
		t.Fatalf("no tool event: %v", rec.names())
	}
}

func TestToolLoopStopsAfterThreeRounds(t *testing.T) {
	f := newToolFixture(t)
	u := f.user(t)
	call := fakeoai.Script{ToolCalls: []fakeoai.ToolCall{{ID: "c", Name: "calculadora_conversao", Arguments: `{}`}}}
	f.fake.Push(call, call, call, call, call)
	a, _ := f.ask(t, u, f.conv(t, u), "Converta 10 kg em libras")
	reqs := f.fake.Requests()
	if len(reqs) != ai.MaxToolRounds+1 || len(a.Tools) != ai.MaxToolRounds {
		t.Fatalf("%d requests, %d tool runs", len(reqs), len(a.Tools))
	}
	if len(reqs[ai.MaxToolRounds].Tools) != 0 {
		t.Fatalf("the last request still offered tools: %v", reqs[ai.MaxToolRounds].Tools)
	}
	if a.Status != "complete" && a.Status != "failed" {
		t.Fatalf("status %q", a.Status)
	}
}

func TestUnknownFunctionIsAToolError(t *testing.T) {
	f := newToolFixture(t)
	u := f.user(t)
	f.fake.Push(fakeoai.Script{ToolCalls: []fakeoai.ToolCall{{ID: "x", Name: "apagar_banco", Arguments: `{`}}})
	a, _ := f.ask(t, u, f.conv(t, u), "Faça algo")
	if a.Status != "complete" || len(a.Tools) != 1 || !strings.Contains(a.Tools[0].Error, "desconhecida") {
		t.Fatalf("%q %+v", a.Status, a.Tools)
	}
}
