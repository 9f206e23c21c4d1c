package sdktest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"io/fs"
	"maps"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/prompt"
)

// AIAnswer is one scripted answer of the fake AI. Err, when set, is what the
// call fails with instead (e.g. status.Error(codes.Unavailable, "…")).
type AIAnswer struct {
	Text    string
	Refused bool
	Reason  string
	Err     error
}

// AICall is one generation the plugin asked for, with the prompt exactly as
// the core fills it.
type AICall struct {
	UserID           string
	Template         string
	Version          string
	Vars             map[string]string
	System, User     string
	JSON             bool
	ImageFileID      string
	ImageContentType string
}

type aiImage struct {
	owner, contentType string
	data               []byte
}

// WithPrompts gives Host.AI the plugin's templates (the same fs.FS as
// Tool.Prompts); a template that does not parse fails the test.
func WithPrompts(fsys fs.FS) Option { return func(c *config) { c.prompts = fsys } }

// QueueAI queues answers, used in order by the next generations. With the
// queue empty a generation fails with Unavailable (a 503 for the plugin).
func (h *Host) QueueAI(answers ...AIAnswer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.aiQueue = append(h.aiQueue, answers...)
}

// AICalls returns every generation asked for so far, refused ones included.
func (h *Host) AICalls() []AICall {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]AICall(nil), h.aiCalls...)
}

// SetAILimit sets the daily generations a member without Premium may ask of
// this tool (default prompt.DefaultTrialDaily, as in the core); a user whose
// Subscription is "premium" gets prompt.DefaultPremiumDaily.
func (h *Host) SetAILimit(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.aiLimit = n
}

// AddImage stores an image userID uploaded to this plugin and returns its
// file id, for AIRequest.ImageFileID.
func (h *Host) AddImage(userID, contentType string, data []byte) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b[:4]) + "-" + hex.EncodeToString(b[4:6]) + "-" + hex.EncodeToString(b[6:8]) + "-" +
		hex.EncodeToString(b[8:10]) + "-" + hex.EncodeToString(b[10:])
	h.mu.Lock()
	defer h.mu.Unlock()
	h.aiImages[id] = aiImage{owner: userID, contentType: contentType, data: data}
	return id
}

// RemoveImage forgets an image, as the core does when the member deletes it.
func (h *Host) RemoveImage(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.aiImages, id)
}

// generate is the core's AIGenerate in memory: the same template parsing,
// variable checks, per-day quota and image ownership rules.
func (h *Host) generate(req *pluginpb.AIGenerateRequest) (*pluginpb.AIGenerateResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("AIGenerate"); err != nil {
		return nil, err
	}
	u, err := h.user(req.RequestToken)
	if err != nil {
		return nil, err
	}
	t, err := prompt.Parse(req.Template, req.TemplateSource)
	if err != nil || t.Version != req.TemplateVersion {
		return nil, errorf(codes.InvalidArgument, "template %q does not parse or its version differs: %v", req.Template, err)
	}
	system, user, err := t.Render(req.Vars)
	if err != nil {
		return nil, errorf(codes.InvalidArgument, "%v", err)
	}
	call := AICall{UserID: u.ID, Template: t.Name, Version: t.Version, Vars: maps.Clone(req.Vars), System: system, User: user,
		JSON: t.JSON, ImageFileID: req.ImageFileId}
	if req.ImageFileId != "" {
		img, ok := h.aiImages[req.ImageFileId]
		if !ok || img.owner != u.ID {
			return nil, errorf(codes.NotFound, "file not found")
		}
		call.ImageContentType = img.contentType
	}
	premium := u.Subscription == "premium"
	limit := h.aiLimit
	if premium {
		limit = prompt.DefaultPremiumDaily
	}
	day := u.ID + "|" + h.Clock.Now().Add(-3*60*60*1e9).Format("2006-01-02")
	if h.aiUsed[day] >= limit {
		h.aiCalls = append(h.aiCalls, call)
		return &pluginpb.AIGenerateResponse{Limited: true, Reason: prompt.LimitMessage(limit, premium), Limit: int32(limit),
			Used: int32(h.aiUsed[day]), Upgrade: !premium}, nil
	}
	h.aiCalls = append(h.aiCalls, call)
	if len(h.aiQueue) == 0 {
		return nil, errorf(codes.Unavailable, "no scripted AI answer (queue one with sdktest.Host.QueueAI)")
	}
	a := h.aiQueue[0]
	h.aiQueue = h.aiQueue[1:]
	if a.Err != nil {
		return nil, a.Err
	}
	h.aiUsed[day]++
	res := &pluginpb.AIGenerateResponse{Text: a.Text, Refused: a.Refused, Reason: a.Reason, Model: "sdktest",
		PromptTokens: int64(len(system)+len(user))/4 + 1, CompletionTokens: int64(len(a.Text))/4 + 1,
		Remaining: int32(limit - h.aiUsed[day])}
	if r, ok := prompt.Refusal(a.Text); ok && !a.Refused {
		res.Refused, res.Reason = true, r
	}
	if t.JSON && !res.Refused && !prompt.ValidJSONObject(a.Text) {
		return nil, errorf(codes.Unavailable, "the scripted answer to a JSON template is not a JSON object: %q", a.Text)
	}
	if t.JSON {
		res.Text = prompt.StripFence(res.Text)
	}
	return res, nil
}

func (c *client) AIGenerate(_ context.Context, req *pluginpb.AIGenerateRequest, _ ...grpc.CallOption) (*pluginpb.AIGenerateResponse, error) {
	return c.h.generate(req)
}

func (c *client) AIGenerateStream(ctx context.Context, req *pluginpb.AIGenerateRequest, _ ...grpc.CallOption) (grpc.ServerStreamingClient[pluginpb.AIGenerateChunk], error) {
	res, err := c.h.generate(req)
	if err != nil {
		return nil, err
	}
	var chunks []*pluginpb.AIGenerateChunk
	if !res.Limited {
		for _, w := range strings.SplitAfter(res.Text, " ") {
			if w != "" {
				chunks = append(chunks, &pluginpb.AIGenerateChunk{Delta: w})
			}
		}
	}
	chunks = append(chunks, &pluginpb.AIGenerateChunk{Result: res})
	return &chunkStream{ctx: ctx, chunks: chunks}, nil
}

// chunkStream replays chunks as a server stream.
type chunkStream struct {
	ctx    context.Context
	chunks []*pluginpb.AIGenerateChunk
}

func (s *chunkStream) Recv() (*pluginpb.AIGenerateChunk, error) {
	if len(s.chunks) == 0 {
		return nil, io.EOF
	}
	c := s.chunks[0]
	s.chunks = s.chunks[1:]
	return c, nil
}
func (s *chunkStream) Header() (metadata.MD, error) { return nil, nil }
func (s *chunkStream) Trailer() metadata.MD         { return nil }
func (s *chunkStream) CloseSend() error             { return nil }
func (s *chunkStream) Context() context.Context     { return s.ctx }
func (s *chunkStream) SendMsg(any) error            { return nil }
func (s *chunkStream) RecvMsg(any) error            { return nil }
