// Package fakeoai is an OpenAI-compatible chat completions server that needs
// no language model. With no endpoint configured the core starts it as the
// embedded default (the demonstration mode): its answer is composed from the
// numbered VetClube passages the core put in the system prompt, with their
// citation markers. Tests script it: error statuses with Retry-After, a slow
// first token, a failure mid-stream, finish_reason=length, tool calls split
// across chunks; and it records every request and every client that went
// away before the stream ended.
//
// Only POST …/chat/completions is served, streaming or not.
package fakeoai

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Model is the model name the demonstration mode reports.
const Model = "vetclube-demo"

// DemoNotice opens every composed answer.
const DemoNotice = "_Modo demonstração: resposta montada a partir do conteúdo publicado no VetClube, sem um modelo de linguagem._"

// Script is one scripted answer; zero fields take the default behaviour.
type Script struct {
	// Status, when not 0 or 200, answers that HTTP status with an OpenAI
	// error body (and RetryAfter as the Retry-After header, when set).
	Status     int
	RetryAfter string
	// FirstDelay waits before the first chunk; ChunkDelay between chunks.
	FirstDelay, ChunkDelay time.Duration
	// Chunks are the text deltas; nil composes the answer from the sources.
	Chunks []string
	// FailAfter > 0 drops the connection after that many chunks (a
	// failure mid-stream).
	FailAfter int
	// FinishReason defaults to "stop" ("length" is the model's limit).
	FinishReason string
	// ToolCalls are streamed (each split across two chunks) instead of
	// text, finishing with finish_reason "tool_calls".
	ToolCalls []ToolCall
	// NoUsage leaves out the final usage chunk.
	NoUsage bool
}

// ToolCall is one function call the fake asks for.
type ToolCall struct {
	ID, Name, Arguments string
}

// Message is one message of a request, its content flattened to text.
type Message struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Images are the image parts' URLs (data: URLs from core/ai).
	Images []string `json:"-"`
}

// Request is what a client sent.
type Request struct {
	Model    string
	Stream   bool
	Messages []Message
	Tools    []string // function names offered
	// JSON: the client asked for a JSON object (response_format).
	JSON bool
	// MaxTokens is max_completion_tokens (0: not sent).
	MaxTokens int
	At        time.Time
}

// Server is the fake. Its zero value is not usable: call New.
type Server struct {
	// ChunkDelay is the default pause between chunks of a composed
	// answer, so a reader sees it arrive (and can stop it).
	ChunkDelay time.Duration

	mu          sync.Mutex
	scripts     []Script
	requests    []Request
	disconnects int
	firstChunk  time.Time
	gone        chan struct{}
}

// FirstChunkAt is when the latest stream's first content chunk was written.
func (s *Server) FirstChunkAt() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.firstChunk
}

// New returns a server that composes answers with chunkDelay between words.
func New(chunkDelay time.Duration) *Server {
	return &Server{ChunkDelay: chunkDelay, gone: make(chan struct{}, 64)}
}

// Push queues scripts, used in order by the next requests; with the queue
// empty, answers are composed from the sources.
func (s *Server) Push(scripts ...Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scripts = append(s.scripts, scripts...)
}

// Requests returns every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Disconnects counts clients that closed the connection mid-stream.
func (s *Server) Disconnects() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.disconnects
}

// Gone receives once per client that closed the connection mid-stream.
func (s *Server) Gone() <-chan struct{} { return s.gone }

// Start serves on addr ("127.0.0.1:0") and returns the base URL (ending in
// "/v1/") and a function that stops the server.
func (s *Server) Start(addr string) (baseURL string, stop func() error, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/v1/", srv.Close, nil
}

type wireRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	ResponseFormat struct {
		Type string `json:"type"`
	} `json:"response_format"`
	MaxCompletionTokens int `json:"max_completion_tokens"`
}

// images returns the URLs of a content's image parts.
func images(raw json.RawMessage) []string {
	var parts []struct {
		Type     string `json:"type"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var out []string
	for _, p := range parts {
		if p.Type == "image_url" && p.ImageURL.URL != "" {
			out = append(out, p.ImageURL.URL)
		}
	}
	return out
}

func flatten(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": "fake_error", "code": nil}})
}

// ServeHTTP answers POST …/chat/completions.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		apiError(w, http.StatusNotFound, "not found")
		return
	}
	var in wireRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&in); err != nil {
		apiError(w, http.StatusBadRequest, "invalid JSON: "+err.Error())
		return
	}
	req := Request{Model: in.Model, Stream: in.Stream, At: time.Now(), JSON: in.ResponseFormat.Type == "json_object", MaxTokens: in.MaxCompletionTokens}
	for _, m := range in.Messages {
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: flatten(m.Content), ToolCallID: m.ToolCallID, Images: images(m.Content)})
	}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	var sc Script
	if len(s.scripts) > 0 {
		sc, s.scripts = s.scripts[0], s.scripts[1:]
	}
	s.mu.Unlock()

	if sc.Status != 0 && sc.Status != http.StatusOK {
		if sc.RetryAfter != "" {
			w.Header().Set("Retry-After", sc.RetryAfter)
		}
		apiError(w, sc.Status, fmt.Sprintf("scripted status %d", sc.Status))
		return
	}
	chunks := sc.Chunks
	if chunks == nil && len(sc.ToolCalls) == 0 {
		if text, ok := ToolAnswer(req); ok {
			// A tool's answer arrives in a few quick pieces: a plugin
			// waits for all of it.
			chunks = pieces(text, 8)
			sc.Chunks = chunks
		} else {
			chunks = Words(Compose(req.Messages))
		}
	}
	finish := sc.FinishReason
	if finish == "" {
		finish = "stop"
	}
	if len(sc.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	usage := map[string]int{"prompt_tokens": promptTokens(req.Messages), "completion_tokens": len(chunks) + 8*len(sc.ToolCalls)}
	usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
	model := req.Model
	if model == "" {
		model = Model
	}
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": strings.Join(chunks, "")}
		if len(sc.ToolCalls) > 0 {
			var calls []map[string]any
			for _, tc := range sc.ToolCalls {
				calls = append(calls, map[string]any{"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}})
			}
			msg["tool_calls"] = calls
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	s.stream(w, r, sc, model, chunks, finish, usage)
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request, sc Script, model string, chunks []string, finish string, usage map[string]int) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	created := time.Now().Unix()
	send := func(choices []any, extra map[string]any) bool {
		ev := map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": created, "model": model, "choices": choices}
		for k, v := range extra {
			ev[k] = v
		}
		b, _ := json.Marshal(ev)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	wait := func(d time.Duration) bool {
		if d <= 0 {
			return r.Context().Err() == nil
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return false
		case <-t.C:
			return true
		}
	}
	gone := func() {
		s.mu.Lock()
		s.disconnects++
		s.mu.Unlock()
		select {
		case s.gone <- struct{}{}:
		default:
		}
	}
	if !wait(sc.FirstDelay) {
		gone()
		return
	}
	delay := sc.ChunkDelay
	if delay == 0 && sc.Chunks == nil {
		delay = s.ChunkDelay
	}
	if !send([]any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": ""}, "finish_reason": nil}}, nil) {
		gone()
		return
	}
	for i, tc := range sc.ToolCalls {
		half := len(tc.Arguments) / 2
		first := map[string]any{"index": i, "id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": tc.Arguments[:half]}}
		second := map[string]any{"index": i, "function": map[string]any{"arguments": tc.Arguments[half:]}}
		for _, part := range []map[string]any{first, second} {
			if !send([]any{map[string]any{"index": 0, "delta": map[string]any{"tool_calls": []any{part}}, "finish_reason": nil}}, nil) {
				gone()
				return
			}
		}
	}
	for i, c := range chunks {
		if i > 0 && !wait(delay) {
			gone()
			return
		}
		if sc.FailAfter > 0 && i == sc.FailAfter {
			// Drop the connection without ending the stream.
			panic(http.ErrAbortHandler)
		}
		if !send([]any{map[string]any{"index": 0, "delta": map[string]any{"content": c}, "finish_reason": nil}}, nil) {
			gone()
			return
		}
		if i == 0 {
			s.mu.Lock()
			s.firstChunk = time.Now()
			s.mu.Unlock()
		}
	}
	if !send([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}, nil) {
		gone()
		return
	}
	if !sc.NoUsage && !send([]any{}, map[string]any{"usage": usage}) {
		gone()
		return
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	_ = rc.Flush()
}

func promptTokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += utf8.RuneCountInString(m.Content)/4 + 4
	}
	return n
}

// pieces splits text into n parts of about the same size (on rune
// boundaries).
func pieces(text string, n int) []string {
	r := []rune(text)
	size := max(1, (len(r)+n-1)/n)
	var out []string
	for i := 0; i < len(r); i += size {
		out = append(out, string(r[i:min(len(r), i+size)]))
	}
	return out
}

// Words splits text into the deltas a model would stream: each word with
// the space before it.
func Words(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if i > start && (r == ' ' || r == '\n') {
			out = append(out, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// sourceHead matches a source's first line in the system prompt:
// "[n] Title (link)".
var sourceHead = regexp.MustCompile(`(?m)^\[(\d+)\] (.+?)(?: \((/[^)]*)\))?$`)

type source struct {
	n, title, text string
}

// Sources reads the numbered passages of a system prompt written by core/ai:
// a "[n] Title (link)" line followed by the passage's text, up to the next
// source or a line "---".
func sources(system string) []source {
	var out []source
	idx := sourceHead.FindAllStringSubmatchIndex(system, -1)
	for i, m := range idx {
		end := len(system)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		body := system[m[1]:end]
		if j := strings.Index(body, "\n---"); j >= 0 {
			body = body[:j]
		}
		out = append(out, source{n: system[m[2]:m[3]], title: system[m[4]:m[5]], text: strings.TrimSpace(body)})
	}
	return out
}

// Compose writes the demonstration answer to the last user message from
// the sources in the system prompt, and the results of tool calls if any.
func Compose(msgs []Message) string {
	var system, question string
	var toolResults []string
	for _, m := range msgs {
		switch m.Role {
		case "system", "developer":
			system += m.Content + "\n"
		case "user":
			question = m.Content
			toolResults = nil
		case "tool":
			toolResults = append(toolResults, m.Content)
		}
	}
	var b strings.Builder
	b.WriteString(DemoNotice + "\n\n")
	for _, t := range toolResults {
		b.WriteString("Resultado da calculadora: " + t + "\n\n")
	}
	src := sources(system)
	if len(src) == 0 {
		b.WriteString("Não encontrei, no conteúdo publicado do VetClube, material sobre \"" + clip(strings.TrimSpace(question), 120) + "\". ")
		b.WriteString("No modo demonstração eu respondo apenas a partir desse conteúdo: tente outras palavras, como o nome da doença, do exame ou do procedimento.")
		return b.String()
	}
	b.WriteString("Sobre \"" + clip(strings.TrimSpace(question), 120) + "\", o conteúdo do VetClube diz:\n\n")
	for i, s := range src {
		if i == 3 {
			break
		}
		b.WriteString("- **" + s.title + "**: " + firstSentences(s.text, 280) + " [" + s.n + "]\n")
	}
	b.WriteString("\nConsulte as fontes citadas para o texto completo e confirme doses na bula ou na literatura.")
	return b.String()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// firstSentences keeps whole sentences of text up to about n characters,
// without Markdown headings or line breaks.
func firstSentences(text string, n int) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#>-*"))
		if l != "" {
			lines = append(lines, l)
		}
	}
	flat := strings.Join(lines, " ")
	flat = strings.NewReplacer("**", "", "__", "", "[", "(", "]", ")").Replace(flat)
	if utf8.RuneCountInString(flat) <= n {
		return flat
	}
	r := []rune(flat)
	cut := string(r[:n])
	if i := strings.LastIndexAny(cut, ".!?"); i > n/3 {
		return cut[:i+1]
	}
	return cut + "…"
}
