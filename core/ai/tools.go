package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// Calculators runs the calculators plugin's forms on a member's behalf (the
// plugin host, in production).
type Calculators interface {
	// FormTools lists each form tool's id and its ui_schema ({"forms":[…]}).
	FormTools() []CalcTool
	// Call posts args to the tool's action as userID, validated by the
	// plugin exactly as its form is; it answers the plugin's status and body.
	Call(ctx context.Context, userID, toolID, action string, args []byte) (int, []byte, error)
}

// CalcTool is one form tool.
type CalcTool struct {
	ID       string
	UISchema json.RawMessage
}

// MaxToolRounds is how many rounds of tool calls one answer may take.
const MaxToolRounds = 3

// calculatorTools are the tools whose forms the model may call.
var calculatorTools = map[string]bool{"calculadoras": true}

type formField struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Unit     string   `json:"unit"`
	Required bool     `json:"required"`
	Min      *float64 `json:"min"`
	Max      *float64 `json:"max"`
	Options  []struct {
		Value string `json:"value"`
		Label string `json:"label"`
	} `json:"options"`
	Help   string `json:"help"`
	ShowIf *struct {
		Field  string   `json:"field"`
		Values []string `json:"values"`
	} `json:"show_if"`
}

type form struct {
	ID          string      `json:"id"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Action      string      `json:"action"`
	Fields      []formField `json:"fields"`
}

// function is one callable: the function name the model sees and the form
// behind it.
type function struct {
	name, tool string
	form       form
}

var fnName = regexp.MustCompile(`[^a-zA-Z0-9_-]+`)

// functions builds the callable functions, with JSON schemas from the
// forms' fields (types, units, ranges, options, required).
func (s *Service) functions() ([]function, []openai.ChatCompletionToolUnionParam) {
	if s.o.Calculators == nil {
		return nil, nil
	}
	var fns []function
	var params []openai.ChatCompletionToolUnionParam
	for _, t := range s.o.Calculators.FormTools() {
		if !calculatorTools[t.ID] {
			continue
		}
		var schema struct {
			Forms []form `json:"forms"`
		}
		if json.Unmarshal(t.UISchema, &schema) != nil {
			continue
		}
		for _, f := range schema.Forms {
			name := "calculadora_" + fnName.ReplaceAllString(f.Action, "_")
			props := map[string]any{}
			var required []string
			for _, fl := range f.Fields {
				desc := fl.Label
				if fl.Unit != "" {
					desc += " (" + fl.Unit + ")"
				}
				if fl.Help != "" {
					desc += ". " + fl.Help
				}
				if fl.ShowIf != nil {
					desc += fmt.Sprintf(". Só quando %s for %s (obrigatório nesse caso)", fl.ShowIf.Field, strings.Join(fl.ShowIf.Values, " ou "))
				}
				p := map[string]any{"description": desc}
				switch fl.Type {
				case "number":
					p["type"] = "number"
					if fl.Min != nil {
						p["minimum"] = *fl.Min
					}
					if fl.Max != nil {
						p["maximum"] = *fl.Max
					}
				case "boolean":
					p["type"] = "boolean"
				case "select":
					p["type"] = "string"
					var enum []string
					for _, o := range fl.Options {
						enum = append(enum, o.Value)
					}
					if len(enum) > 0 {
						p["enum"] = enum
					}
				default:
					p["type"] = "string"
				}
				props[fl.Name] = p
				if fl.Required && fl.ShowIf == nil {
					required = append(required, fl.Name)
				}
			}
			sch := shared.FunctionParameters{"type": "object", "properties": props}
			if len(required) > 0 {
				sch["required"] = required
			}
			fns = append(fns, function{name: name, tool: t.ID, form: f})
			params = append(params, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name: name, Description: openai.String(strings.TrimSpace(f.Title + ". " + f.Description)), Parameters: sch,
			}))
		}
	}
	return fns, params
}

// toolCall is one call the model asked for, assembled from its chunks.
type toolCall struct {
	ID, Name string
	Args     strings.Builder
}

// runTool calls a function and returns what the model reads and the card
// shown. Any failure (unknown function, arguments the form refuses, the
// plugin down) is a tool error the model sees, never a failed answer.
func (s *Service) runTool(ctx context.Context, userID string, fns []function, c *toolCall) (string, ToolRun) {
	var fn *function
	for i := range fns {
		if fns[i].name == c.Name {
			fn = &fns[i]
		}
	}
	if fn == nil {
		msg := "Função desconhecida: " + c.Name
		return toolError(msg), ToolRun{Name: c.Name, Title: c.Name, Error: msg}
	}
	run := ToolRun{Name: c.Name, Title: fn.form.Title}
	args := []byte(c.Args.String())
	if !json.Valid(args) {
		run.Error = "Argumentos inválidos (JSON malformado)."
		return toolError(run.Error), run
	}
	status, body, err := s.o.Calculators.Call(ctx, userID, fn.tool, fn.form.Action, args)
	if err != nil {
		run.Error = "A calculadora não respondeu."
		s.log.Warn("ai tool call", "tool", fn.tool, "action", fn.form.Action, "err", err)
		return toolError(run.Error), run
	}
	if status < 200 || status > 299 {
		var e struct {
			Error struct {
				Message string            `json:"message"`
				Fields  map[string]string `json:"fields"`
			} `json:"error"`
		}
		_ = json.Unmarshal(body, &e)
		msg := e.Error.Message
		for k, v := range e.Error.Fields {
			msg += fmt.Sprintf(" %s: %s", k, v)
		}
		if strings.TrimSpace(msg) == "" {
			msg = fmt.Sprintf("A calculadora recusou os argumentos (status %d).", status)
		}
		run.Error = strings.TrimSpace(msg)
		return toolError(run.Error), run
	}
	var res struct {
		Values []struct {
			Label, Display, Unit string
		} `json:"values"`
		Explanation string `json:"explanation"`
	}
	_ = json.Unmarshal(body, &res)
	var parts []string
	for _, v := range res.Values {
		parts = append(parts, strings.TrimSpace(v.Label+": "+v.Display+" "+v.Unit))
	}
	run.Result = "Cálculo: " + strings.ToLower(fn.form.Title) + " — " + strings.Join(parts, "; ")
	return string(body), run
}

func toolError(msg string) string {
	b, _ := json.Marshal(map[string]string{"error": msg})
	return string(b)
}
