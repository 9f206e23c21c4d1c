//go:build !js

package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// PublishedItem is one published content item as any member may see it:
// only published, non-deleted items, only their public fields.
type PublishedItem struct {
	ID, Type, Slug, Title string
	// Summary is the short text lists show.
	Summary string
	// URL is the item's page in the PWA ("" when its type has none).
	URL         string
	Fields      map[string]any
	PublishedAt time.Time
}

// String returns the field name as text ("" when absent or not a string).
func (p PublishedItem) String(name string) string {
	s, _ := p.Fields[name].(string)
	return s
}

// PublishedQuery narrows a list of published items.
type PublishedQuery struct {
	// Text matches the title and searchable text, accents and case aside.
	Text string
	// Filters are exact matches on top-level fields ("state": "SP").
	Filters map[string]string
	// Limit is 1–50 (0: 10).
	Limit int
}

// PublishedContent reads what the VetClube publishes (courses, news, jobs…)
// for a tool: host.PublishedContent.List(ctx, "cursos", q) and .Get. It
// never returns drafts, deleted items or anything private to a member.
type PublishedContent struct {
	c pluginpb.HostClient
}

// List returns the newest published items of contentType matching q; a
// type that is not a public content type is ErrNotFound (errors.Is).
func (p *PublishedContent) List(ctx context.Context, contentType string, q PublishedQuery) ([]PublishedItem, error) {
	res, err := p.c.ListPublishedContent(ctx, &pluginpb.ListPublishedContentRequest{
		RequestToken: requestToken(ctx), Type: contentType, Query: q.Text, Filters: q.Filters, Limit: int32(q.Limit),
	})
	if status.Code(err) == codes.NotFound {
		// No such public type (its plugin is not installed, say).
		return nil, fmt.Errorf("host: list published %q: %w", contentType, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("host: list published %q: %w", contentType, err)
	}
	out := make([]PublishedItem, 0, len(res.Items))
	for _, it := range res.Items {
		item, err := publishedFromWire(it)
		if err != nil {
			return nil, err
		}
		out = append(out, item)
	}
	return out, nil
}

// Get returns one published item of contentType; anything else (a draft,
// a deleted item, another type, an unknown id) is ErrNotFound (errors.Is).
func (p *PublishedContent) Get(ctx context.Context, contentType, id string) (PublishedItem, error) {
	res, err := p.c.GetPublishedContent(ctx, &pluginpb.GetPublishedContentRequest{
		RequestToken: requestToken(ctx), Type: contentType, Id: id,
	})
	if status.Code(err) == codes.NotFound {
		return PublishedItem{}, fmt.Errorf("host: published %q %q: %w", contentType, id, ErrNotFound)
	}
	if err != nil {
		return PublishedItem{}, fmt.Errorf("host: published %q %q: %w", contentType, id, err)
	}
	if res.Item == nil {
		return PublishedItem{}, fmt.Errorf("host: published %q %q: %w", contentType, id, ErrNotFound)
	}
	return publishedFromWire(res.Item)
}

func publishedFromWire(it *pluginpb.PublishedContentItem) (PublishedItem, error) {
	out := PublishedItem{ID: it.Id, Type: it.Type, Slug: it.Slug, Title: it.Title, Summary: it.Summary, URL: it.Url, Fields: map[string]any{}}
	if it.PublishedAtUnix > 0 {
		out.PublishedAt = time.Unix(it.PublishedAtUnix, 0).UTC()
	}
	if len(it.FieldsJson) > 0 {
		if err := json.Unmarshal(it.FieldsJson, &out.Fields); err != nil {
			return PublishedItem{}, errors.New("host: published item: bad fields")
		}
	}
	return out, nil
}
