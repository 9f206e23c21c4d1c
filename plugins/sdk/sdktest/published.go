package sdktest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk"
)

// Publish adds a published item of its type to what
// host.PublishedContent lists and gets, as if an editor had published it
// in the core (a fake job of type "vagas", a course of type "cursos").
// Items listed newest first are the ones published last. ID and Type are
// required.
func (h *Host) Publish(item sdk.PublishedItem) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if item.ID == "" || item.Type == "" {
		h.t.Fatalf("sdktest.Publish: the item needs an ID and a Type")
	}
	if h.published == nil {
		h.published = map[string][]sdk.PublishedItem{}
	}
	if item.PublishedAt.IsZero() {
		item.PublishedAt = h.Clock.Now()
	}
	h.published[item.Type] = append([]sdk.PublishedItem{item}, h.published[item.Type]...)
}

func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

func publishedWire(it sdk.PublishedItem) (*pluginpb.PublishedContentItem, error) {
	fields := it.Fields
	if fields == nil {
		fields = map[string]any{}
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("sdktest: published item %q: %w", it.ID, err)
	}
	return &pluginpb.PublishedContentItem{Id: it.ID, Type: it.Type, Slug: it.Slug, Title: it.Title, Summary: it.Summary, Url: it.URL,
		FieldsJson: b, PublishedAtUnix: it.PublishedAt.Unix()}, nil
}

func (c *client) ListPublishedContent(_ context.Context, req *pluginpb.ListPublishedContentRequest, _ ...grpc.CallOption) (*pluginpb.ListPublishedContentResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("ListPublishedContent"); err != nil {
		return nil, err
	}
	if err := sdk.CheckPublishedQuery(req.Type, req.Query, req.Filters, int(req.Limit)); err != nil {
		return nil, errorf(codes.InvalidArgument, "%v", err)
	}
	if _, known := h.published[req.Type]; !known {
		return nil, errorf(codes.NotFound, "no public content type %q (in tests: sdktest.Host.Publish an item of it)", req.Type)
	}
	limit := sdk.PublishedLimit(int(req.Limit))
	q := fold(strings.TrimSpace(req.Query))
	res := &pluginpb.ListPublishedContentResponse{}
	for _, it := range h.published[req.Type] {
		if len(res.Items) == limit {
			break
		}
		if !matchesFilters(it, req.Filters) || (q != "" && !matchesText(it, q)) {
			continue
		}
		w, err := publishedWire(it)
		if err != nil {
			return nil, err
		}
		res.Items = append(res.Items, w)
	}
	return res, nil
}

func matchesFilters(it sdk.PublishedItem, filters map[string]string) bool {
	for k, v := range filters {
		if fmt.Sprint(it.Fields[k]) != v {
			return false
		}
	}
	return true
}

// matchesText is a word-by-word match of q in the title and the item's
// text fields (the core uses full-text search; every word must appear).
func matchesText(it sdk.PublishedItem, q string) bool {
	var b strings.Builder
	b.WriteString(it.Title)
	b.WriteString(" ")
	b.WriteString(it.Summary)
	for _, v := range it.Fields {
		if s, ok := v.(string); ok {
			b.WriteString(" ")
			b.WriteString(s)
		}
	}
	hay := fold(b.String())
	for _, w := range strings.Fields(q) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

func (c *client) GetPublishedContent(_ context.Context, req *pluginpb.GetPublishedContentRequest, _ ...grpc.CallOption) (*pluginpb.GetPublishedContentResponse, error) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.failure("GetPublishedContent"); err != nil {
		return nil, err
	}
	for _, it := range h.published[req.Type] {
		if it.ID == req.Id {
			w, err := publishedWire(it)
			if err != nil {
				return nil, err
			}
			return &pluginpb.GetPublishedContentResponse{Item: w}, nil
		}
	}
	return nil, errorf(codes.NotFound, "no published %s item %q (in tests: sdktest.Host.Publish)", req.Type, req.Id)
}
