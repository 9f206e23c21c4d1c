package pluginhost

import (
	"context"
	"encoding/json"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk"
)

// PublishedContent is what the host API reads published content through
// (core/content's Store): published, non-deleted items only, as the public
// content API shows them to any reader.
type PublishedContent interface {
	List(ctx context.Context, q content.ListQuery) (content.Page, error)
	GetPublished(ctx context.Context, typeID, idOrSlug, readerID string) (content.PublicItem, error)
	Types() *content.Registry
}

// publishedType returns the type a plugin may read: a registered type the
// public content API serves (not one read only through its own feature's
// API, such as members' posts or a plugin's private type).
func (h *hostAPI) publishedType(typeID string) (PublishedContent, *content.Type, error) {
	pc := h.p.m.opts.Published
	if pc == nil {
		return nil, nil, status.Error(codes.Unavailable, "published content is not available")
	}
	reg := pc.Types()
	t, ok := reg.Get(typeID)
	if !ok || reg.OwnAPI(typeID) {
		return nil, nil, status.Errorf(codes.NotFound, "no public content type %q", typeID)
	}
	return pc, t, nil
}

func publishedWire(t *content.Type, it content.PublicItem) *pluginpb.PublishedContentItem {
	out := &pluginpb.PublishedContentItem{Id: it.ID, Type: it.Type, Slug: it.Slug, Title: it.Title,
		FieldsJson: nonNil(it.Fields), PublishedAtUnix: it.PublishedAt.Unix(), Summary: it.Summary}
	if len(out.FieldsJson) == 0 || !json.Valid(out.FieldsJson) {
		out.FieldsJson = []byte("{}")
	}
	if t.Route != "" {
		out.Url = t.Route + "/" + it.Slug
	}
	return out
}

// ListPublishedContent lists a type's published items, newest first (most
// relevant first with a text query), with the type's listed fields.
func (h *hostAPI) ListPublishedContent(ctx context.Context, req *pluginpb.ListPublishedContentRequest) (*pluginpb.ListPublishedContentResponse, error) {
	if _, err := h.user(req.RequestToken); err != nil {
		return nil, err
	}
	if err := sdk.CheckPublishedQuery(req.Type, req.Query, req.Filters, int(req.Limit)); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	pc, t, err := h.publishedType(req.Type)
	if err != nil {
		return nil, err
	}
	q := content.ListQuery{Type: t.ID, Search: strings.TrimSpace(req.Query), Limit: sdk.PublishedLimit(int(req.Limit))}
	for name, v := range req.Filters {
		q.Filters = append(q.Filters, content.Filter{Field: name, Values: []string{v}})
	}
	page, err := pc.List(ctx, q)
	if code := core.ErrorCode(err); code == core.EINVALID {
		return nil, status.Error(codes.InvalidArgument, core.ErrorMessage(err))
	} else if code == core.ENOTFOUND {
		return nil, status.Errorf(codes.NotFound, "no public content type %q", req.Type)
	}
	if err != nil {
		return nil, internal(err)
	}
	res := &pluginpb.ListPublishedContentResponse{}
	for _, it := range page.Items {
		res.Items = append(res.Items, publishedWire(t, it))
	}
	return res, nil
}

// GetPublishedContent returns one published item with all its fields.
func (h *hostAPI) GetPublishedContent(ctx context.Context, req *pluginpb.GetPublishedContentRequest) (*pluginpb.GetPublishedContentResponse, error) {
	if _, err := h.user(req.RequestToken); err != nil {
		return nil, err
	}
	if err := sdk.CheckPublishedQuery(req.Type, "", nil, 0); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	if req.Id == "" || len(req.Id) > 200 || strings.ContainsFunc(req.Id, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, status.Error(codes.InvalidArgument, "id must be an item id or slug")
	}
	pc, t, err := h.publishedType(req.Type)
	if err != nil {
		return nil, err
	}
	it, err := pc.GetPublished(ctx, t.ID, req.Id, "")
	if core.ErrorCode(err) == core.ENOTFOUND {
		return nil, status.Errorf(codes.NotFound, "no published %s item %q", req.Type, req.Id)
	}
	if err != nil {
		return nil, internal(err)
	}
	return &pluginpb.GetPublishedContentResponse{Item: publishedWire(t, it)}, nil
}
