package pluginhost

import (
	"context"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/ai"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/prompt"
)

// ToolAI is the core's AI service as the host API uses it (core/ai).
type ToolAI interface {
	ToolGenerate(ctx context.Context, req ai.ToolRequest, onText func(string)) (ai.ToolResult, error)
}

// ToolFile reads a file a member uploaded to a plugin (member tool files):
// only the member's own file of that plugin, else a core.ENOTFOUND error.
type ToolFile func(ctx context.Context, pluginID, userID, fileID string) (contentType string, data []byte, err error)

// AICallTimeout is how long a request may run while the host generates for
// it: a model answer takes longer than PLUGIN_CALL_TIMEOUT allows a plugin.
const AICallTimeout = 120 * time.Second

type aiDeps struct {
	gen   ToolAI
	files ToolFile
}

var aiMu sync.RWMutex

// SetAI lets plugins reach the AI service (host.AI) and, for images, the
// member's tool files; the AI service is built after the host, so it is set
// afterwards. files nil refuses generations with an image.
func (m *Manager) SetAI(gen ToolAI, files ToolFile) {
	aiMu.Lock()
	defer aiMu.Unlock()
	m.ai = &aiDeps{gen: gen, files: files}
}

func (m *Manager) aiDeps() *aiDeps {
	aiMu.RLock()
	defer aiMu.RUnlock()
	return m.ai
}

// withExtensibleTimeout is context.WithTimeout whose deadline extend can
// push later (never earlier); the cause of a timeout is
// context.DeadlineExceeded.
func withExtensibleTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc, func(time.Duration)) {
	ctx, cancel := context.WithCancelCause(parent)
	var mu sync.Mutex
	deadline := time.Now().Add(d)
	t := time.AfterFunc(d, func() { cancel(context.DeadlineExceeded) })
	extend := func(by time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if next := time.Now().Add(by); next.After(deadline) {
			deadline = next
			t.Reset(time.Until(deadline))
		}
	}
	return ctx, func() { t.Stop(); cancel(context.Canceled) }, extend
}

// aiRequest checks a plugin's generation request and builds the core's.
func (h *hostAPI) aiRequest(ctx context.Context, req *pluginpb.AIGenerateRequest) (ToolAI, ai.ToolRequest, error) {
	deps := h.p.m.aiDeps()
	if deps == nil || deps.gen == nil {
		return nil, ai.ToolRequest{}, status.Error(codes.Unavailable, "the AI service is not available")
	}
	rc, err := h.user(req.RequestToken)
	if err != nil {
		return nil, ai.ToolRequest{}, err
	}
	if rc.extend != nil {
		rc.extend(AICallTimeout)
	}
	t, err := prompt.Parse(req.Template, req.TemplateSource)
	if err != nil {
		return nil, ai.ToolRequest{}, status.Error(codes.InvalidArgument, err.Error())
	}
	if t.Version != req.TemplateVersion {
		return nil, ai.ToolRequest{}, status.Errorf(codes.InvalidArgument, "template %s: version %q sent, %q in its text", t.Name, req.TemplateVersion, t.Version)
	}
	system, user, err := t.Render(req.Vars)
	if err != nil {
		return nil, ai.ToolRequest{}, status.Error(codes.InvalidArgument, err.Error())
	}
	name := h.id()
	if m := h.p.currentManifest(); m != nil && m.Name != "" {
		name = m.Name
	}
	out := ai.ToolRequest{UserID: rc.principal.UserID, ToolID: h.id(), ToolName: name, Template: t.Name, Version: t.Version,
		System: system, User: user, JSON: t.JSON, MaxTokens: t.MaxTokens}
	if req.ImageFileId != "" {
		if deps.files == nil {
			return nil, out, status.Error(codes.FailedPrecondition, "O envio de imagens ainda não está disponível.")
		}
		ct, data, err := deps.files(ctx, h.id(), rc.principal.UserID, req.ImageFileId)
		if core.ErrorCode(err) == core.ENOTFOUND {
			return nil, out, status.Error(codes.NotFound, "file not found")
		}
		if err != nil {
			return nil, out, internal(err)
		}
		switch ct {
		case "image/jpeg", "image/png", "image/webp":
		default:
			return nil, out, status.Error(codes.InvalidArgument, "O arquivo precisa ser uma imagem JPEG, PNG ou WebP.")
		}
		out.Image = &ai.ToolImage{ContentType: ct, Data: data}
	}
	return deps.gen, out, nil
}

func toolResponse(res ai.ToolResult, err error) (*pluginpb.AIGenerateResponse, error) {
	var lim *ai.ToolLimitError
	if errors.As(err, &lim) {
		return &pluginpb.AIGenerateResponse{Limited: true, Reason: lim.Reason, Limit: int32(lim.Limit), Used: int32(lim.Used), Upgrade: lim.Upgrade}, nil
	}
	if errors.Is(err, ai.ErrToolFailed) {
		return nil, status.Error(codes.Unavailable, "the AI endpoint did not complete the answer")
	}
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.AIGenerateResponse{Text: res.Text, Refused: res.Refused, Reason: res.Reason, Model: res.Model,
		PromptTokens: res.PromptTokens, CompletionTokens: res.CompletionTokens, Demo: res.Demo,
		Limit: int32(res.Limit), Used: int32(res.Used), Remaining: int32(res.Remaining)}, nil
}

// AIGenerate fills the plugin's template and asks the AI service, for the
// request's member, within that member's quota for this plugin.
func (h *hostAPI) AIGenerate(ctx context.Context, req *pluginpb.AIGenerateRequest) (*pluginpb.AIGenerateResponse, error) {
	gen, in, err := h.aiRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	return toolResponse(gen.ToolGenerate(ctx, in, nil))
}

// AIGenerateStream is AIGenerate sending the text as it arrives.
func (h *hostAPI) AIGenerateStream(req *pluginpb.AIGenerateRequest, st grpc.ServerStreamingServer[pluginpb.AIGenerateChunk]) error {
	ctx := st.Context()
	gen, in, err := h.aiRequest(ctx, req)
	if err != nil {
		return err
	}
	res, err := toolResponse(gen.ToolGenerate(ctx, in, func(delta string) {
		_ = st.Send(&pluginpb.AIGenerateChunk{Delta: delta})
	}))
	if err != nil {
		return err
	}
	return st.Send(&pluginpb.AIGenerateChunk{Result: res})
}

// currentManifest is the running process's manifest (nil before start).
func (p *plugin) currentManifest() *pluginpb.Manifest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.manifest
}
