//go:build !js

package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/prompt"
)

// AIRequest is one generation: a template of the plugin's prompts folder
// (Tool.Prompts) by name, the values of its variables, and optionally a file
// the signed-in member uploaded to this plugin, sent to the model as an image.
type AIRequest struct {
	Template    string
	Vars        map[string]string
	ImageFileID string
}

// AIResult is the model's answer.
type AIResult struct {
	Text string
	// Refused: the model declined (an image that is not clinical, a request
	// outside the tool's purpose); Reason is its pt-BR explanation.
	Refused bool
	Reason  string
	Model   string
	// PromptTokens and CompletionTokens are what the call cost.
	PromptTokens, CompletionTokens int64
	// Remaining is how many generations of this tool the member has left
	// today (-1: not reported).
	Remaining int
	// Demo: the answer comes from the demonstration server, not a model.
	Demo bool
}

// AILimitError is the member's quota for this tool used up. Reason is the
// pt-BR message to show; Upgrade says Premium would lift the limit.
type AILimitError struct {
	Reason      string
	Limit, Used int
	Upgrade     bool
}

func (e *AILimitError) Error() string { return "ai quota: " + e.Reason }

// AI is the core's AI service as a plugin sees it (Host.AI). The plugin
// holds no key and sends no text of its own beyond its templates and their
// variables; the core applies the member's quota for the tool, records the
// tokens and the cost, and refuses over the limit.
type AI struct {
	c       pluginpb.HostClient
	prompts prompt.Set
}

// UsePrompts sets the templates Generate may name (Serve does it from
// Tool.Prompts; the test kit from sdktest.WithPrompts).
func (a *AI) UsePrompts(fsys fs.FS) error {
	set, err := prompt.Load(fsys)
	if err != nil {
		return err
	}
	a.prompts = set
	return nil
}

func (a *AI) request(ctx context.Context, req AIRequest) (*pluginpb.AIGenerateRequest, error) {
	t, ok := a.prompts[req.Template]
	if !ok {
		return nil, fmt.Errorf("ai: no prompt template %q in Tool.Prompts", req.Template)
	}
	if err := prompt.CheckVars(req.Vars); err != nil {
		return nil, fmt.Errorf("ai: %w", err)
	}
	return &pluginpb.AIGenerateRequest{
		RequestToken: requestToken(ctx), Template: t.Name, TemplateVersion: t.Version, TemplateSource: t.Source,
		Vars: req.Vars, ImageFileId: req.ImageFileID,
	}, nil
}

func aiResult(r *pluginpb.AIGenerateResponse) (AIResult, error) {
	if r == nil {
		return AIResult{}, errors.New("ai: empty answer")
	}
	if r.Limited {
		return AIResult{}, &AILimitError{Reason: r.Reason, Limit: int(r.Limit), Used: int(r.Used), Upgrade: r.Upgrade}
	}
	return AIResult{Text: r.Text, Refused: r.Refused, Reason: r.Reason, Model: r.Model, PromptTokens: r.PromptTokens,
		CompletionTokens: r.CompletionTokens, Remaining: int(r.Remaining), Demo: r.Demo}, nil
}

// Generate asks for one answer to req for the request's member.
func (a *AI) Generate(ctx context.Context, req AIRequest) (AIResult, error) {
	pb, err := a.request(ctx, req)
	if err != nil {
		return AIResult{}, err
	}
	res, err := a.c.AIGenerate(ctx, pb)
	if err != nil {
		return AIResult{}, fmt.Errorf("host: ai generate: %w", err)
	}
	return aiResult(res)
}

// Stream is Generate calling onText with each piece of text as it arrives.
func (a *AI) Stream(ctx context.Context, req AIRequest, onText func(string)) (AIResult, error) {
	pb, err := a.request(ctx, req)
	if err != nil {
		return AIResult{}, err
	}
	st, err := a.c.AIGenerateStream(ctx, pb)
	if err != nil {
		return AIResult{}, fmt.Errorf("host: ai stream: %w", err)
	}
	for {
		ch, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return AIResult{}, errors.New("host: ai stream ended without a result")
		}
		if err != nil {
			return AIResult{}, fmt.Errorf("host: ai stream: %w", err)
		}
		if ch.Delta != "" && onText != nil {
			onText(ch.Delta)
		}
		if ch.Result != nil {
			return aiResult(ch.Result)
		}
	}
}

// Messages for AI failures a member reads.
const (
	aiImageMissing = "A imagem não foi encontrada. Envie-a novamente."
	aiUnavailable  = "A IA não conseguiu responder agora. Tente novamente em instantes; esta tentativa não foi descontada."
)

// WriteAIError answers a failed Generate: the quota used up is 429 with
// its reason (and "upgrade": true when Premium would lift it), an image
// that is not the member's 404, a refused argument 422 with the core's
// pt-BR reason, the model unreachable 503; anything else 500 with message.
func WriteAIError(w http.ResponseWriter, err error, message string) {
	var lim *AILimitError
	if errors.As(err, &lim) {
		WriteJSON(w, http.StatusTooManyRequests, map[string]any{"error": map[string]any{
			"code": "rate_limited", "message": lim.Reason, "upgrade": lim.Upgrade, "limit": lim.Limit, "used": lim.Used,
		}})
		return
	}
	var gs interface{ GRPCStatus() *status.Status }
	if errors.As(err, &gs) {
		st := gs.GRPCStatus()
		switch st.Code() {
		case codes.NotFound:
			WriteError(w, http.StatusNotFound, aiImageMissing, nil)
			return
		case codes.InvalidArgument, codes.FailedPrecondition:
			WriteError(w, http.StatusUnprocessableEntity, st.Message(), nil)
			return
		case codes.Unavailable, codes.DeadlineExceeded:
			WriteError(w, http.StatusServiceUnavailable, aiUnavailable, nil)
			return
		}
	}
	WriteHostError(w, err, message)
}
