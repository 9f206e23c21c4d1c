// Package prompt reads and fills a plugin's AI prompt templates
// (plugins/<id>/prompts/<name>.tmpl). The plugin and the core share it: the
// plugin embeds and checks its templates at start, the core fills them with
// the request's variables before calling the model, and the test kit fills
// them the same way so a plugin's test sees the exact prompt.
//
// A template is a header of "key: value" lines, then a "--- system" section
// and a "--- user" section, each a text/template over the variables
// ({{.rede}}). Header keys: version (required, recorded with every call, so a
// change to the text is a new version), format (text or json: the model is
// asked for a JSON object and the answer must parse), max_tokens (the
// answer's budget, 1–4000, default 1200).
package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"
)

// Template is one parsed prompt template.
type Template struct {
	Name      string
	Version   string
	JSON      bool
	MaxTokens int
	Source    string
	system    *template.Template
	user      *template.Template
}

// Limits on what a template receives.
const (
	MaxVarRunes   = 6000
	MaxTotalRunes = 24000
	MaxSource     = 32 << 10
)

var (
	namePattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,39}$`)
	varPattern  = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,39}$`)
	versionPat  = regexp.MustCompile(`^[0-9A-Za-z.-]{1,20}$`)
)

// Parse reads one template's source.
func Parse(name, src string) (*Template, error) {
	if !namePattern.MatchString(name) {
		return nil, fmt.Errorf("prompt %q: name must be lowercase letters, digits and dashes", name)
	}
	if len(src) > MaxSource {
		return nil, fmt.Errorf("prompt %s: longer than %d bytes", name, MaxSource)
	}
	if !utf8.ValidString(src) {
		return nil, fmt.Errorf("prompt %s: not UTF-8", name)
	}
	t := &Template{Name: name, MaxTokens: 1200, Source: src}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var section string
	var sys, usr []string
	for _, l := range lines {
		switch strings.TrimSpace(l) {
		case "--- system":
			section = "system"
			continue
		case "--- user":
			section = "user"
			continue
		}
		switch section {
		case "":
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			k, v, ok := strings.Cut(l, ":")
			if !ok {
				return nil, fmt.Errorf("prompt %s: header line %q is not key: value", name, l)
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			switch k {
			case "version":
				if !versionPat.MatchString(v) {
					return nil, fmt.Errorf("prompt %s: version %q", name, v)
				}
				t.Version = v
			case "format":
				if v != "text" && v != "json" {
					return nil, fmt.Errorf("prompt %s: format must be text or json", name)
				}
				t.JSON = v == "json"
			case "max_tokens":
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 4000 {
					return nil, fmt.Errorf("prompt %s: max_tokens must be 1–4000", name)
				}
				t.MaxTokens = n
			default:
				return nil, fmt.Errorf("prompt %s: unknown header %q", name, k)
			}
		case "system":
			sys = append(sys, l)
		case "user":
			usr = append(usr, l)
		}
	}
	if t.Version == "" {
		return nil, fmt.Errorf("prompt %s: no version header", name)
	}
	if len(usr) == 0 {
		return nil, fmt.Errorf("prompt %s: no --- user section", name)
	}
	var err error
	if t.system, err = template.New(name + ".system").Option("missingkey=error").Parse(strings.TrimSpace(strings.Join(sys, "\n"))); err != nil {
		return nil, fmt.Errorf("prompt %s: %w", name, err)
	}
	if t.user, err = template.New(name + ".user").Option("missingkey=error").Parse(strings.TrimSpace(strings.Join(usr, "\n"))); err != nil {
		return nil, fmt.Errorf("prompt %s: %w", name, err)
	}
	return t, nil
}

// ErrVars is a variable the template cannot take (its message says which).
var ErrVars = errors.New("prompt variables")

// CheckVars refuses variable names outside [a-z_0-9], values with control
// characters other than line breaks and tabs, and values past the limits.
func CheckVars(vars map[string]string) error {
	total := 0
	for k, v := range vars {
		if !varPattern.MatchString(k) {
			return fmt.Errorf("%w: name %q", ErrVars, k)
		}
		if !utf8.ValidString(v) {
			return fmt.Errorf("%w: %s is not UTF-8", ErrVars, k)
		}
		for _, r := range v {
			if unicode.IsControl(r) && r != '\n' && r != '\t' {
				return fmt.Errorf("%w: %s has a control character", ErrVars, k)
			}
		}
		n := utf8.RuneCountInString(v)
		if n > MaxVarRunes {
			return fmt.Errorf("%w: %s is longer than %d characters", ErrVars, k, MaxVarRunes)
		}
		total += n
	}
	if total > MaxTotalRunes {
		return fmt.Errorf("%w: longer than %d characters in all", ErrVars, MaxTotalRunes)
	}
	return nil
}

// Render fills the system and user sections with vars; a variable the
// template uses and vars lacks is an error.
func (t *Template) Render(vars map[string]string) (system, user string, err error) {
	if err := CheckVars(vars); err != nil {
		return "", "", err
	}
	if vars == nil {
		vars = map[string]string{}
	}
	var a, b bytes.Buffer
	if err := t.system.Execute(&a, vars); err != nil {
		return "", "", fmt.Errorf("%w: %s", ErrVars, err)
	}
	if err := t.user.Execute(&b, vars); err != nil {
		return "", "", fmt.Errorf("%w: %s", ErrVars, err)
	}
	return a.String(), b.String(), nil
}

// Set is a plugin's templates by name.
type Set map[string]*Template

// Load parses every *.tmpl file at the root of fsys (the embedded prompts
// folder).
func Load(fsys fs.FS) (Set, error) {
	set := Set{}
	if fsys == nil {
		return set, nil
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("prompts: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".tmpl" {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(e.Name(), ".tmpl")
		t, err := Parse(name, string(b))
		if err != nil {
			return nil, err
		}
		set[name] = t
	}
	return set, nil
}

// StripFence removes a Markdown code fence a model may put around JSON.
func StripFence(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	return strings.TrimSpace(s)
}

// ValidJSONObject reports whether s (fence removed) is one JSON object.
func ValidJSONObject(s string) bool {
	var v map[string]any
	return json.Unmarshal([]byte(StripFence(s)), &v) == nil
}

// RefusalPrefix opens an answer in which the model declines; the host's
// rules ask for it and the core reads it.
const RefusalPrefix = "RECUSA:"

// Refusal reads a declined answer: "RECUSA: reason" (or a JSON object
// {"recusa": "reason"} for JSON templates).
func Refusal(text string) (reason string, refused bool) {
	s := StripFence(text)
	if r, ok := strings.CutPrefix(s, RefusalPrefix); ok {
		return strings.TrimSpace(r), true
	}
	var v struct {
		Recusa *string `json:"recusa"`
	}
	if json.Unmarshal([]byte(s), &v) == nil && v.Recusa != nil && strings.TrimSpace(*v.Recusa) != "" {
		return strings.TrimSpace(*v.Recusa), true
	}
	return "", false
}
