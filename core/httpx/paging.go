package httpx

import (
	"net/http"
	"slices"
	"strings"

	"github.com/vetclube/vetclube/core"
)

// ListQuery is one page of a backoffice list, read from react-admin's
// ra-data-simple-rest parameters: range=[0,24], sort=["email","ASC"] and
// filter={"q":"ana"}.
type ListQuery struct {
	Offset, Limit int
	// SortField is one of ListParams.SortFields, or "" for the default order.
	SortField  string
	Descending bool
}

// ListParams are a list's own bounds.
type ListParams struct {
	// DefaultLimit applies without a range (25 when 0).
	DefaultLimit int
	// MaxLimit caps a page however wide the range asked (100 when 0).
	MaxLimit int
	// SortFields are the fields the list may be sorted by.
	SortFields []string
}

// MaxListOffset bounds how deep a list may be paged. A backoffice never
// reaches it, and it keeps Offset+Limit and the Content-Range arithmetic far
// from overflowing.
const MaxListOffset = 1_000_000_000

func badParam(field, msg string) error {
	return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{field: msg})
}

// ParseList reads range, sort and filter from r. filter, when not nil, is a
// pointer to the struct the list's filter decodes into (unknown keys and
// control characters are refused as in a JSON body). Every bound is checked
// before arithmetic: ranges such as [0,9223372036854775807] used to overflow
// into a negative LIMIT.
func ParseList(r *http.Request, p ListParams, filter any) (ListQuery, error) {
	if p.DefaultLimit <= 0 {
		p.DefaultLimit = 25
	}
	if p.MaxLimit <= 0 {
		p.MaxLimit = 100
	}
	q := ListQuery{Limit: min(p.DefaultLimit, p.MaxLimit)}
	v := r.URL.Query()
	if raw := v.Get("range"); raw != "" {
		var rg []int64
		if err := DecodeParam(raw, "range", &rg); err != nil {
			return q, err
		}
		if len(rg) != 2 || rg[0] < 0 || rg[1] < rg[0] || rg[0] > MaxListOffset {
			return q, badParam("range", "Use [início,fim] com 0 ≤ início ≤ fim.")
		}
		// rg[1]-rg[0] cannot overflow: both are non-negative.
		q.Offset = int(rg[0])
		q.Limit = int(min(rg[1]-rg[0], int64(p.MaxLimit)-1) + 1)
	}
	if raw := v.Get("sort"); raw != "" {
		var sort []string
		if err := DecodeParam(raw, "sort", &sort); err != nil {
			return q, err
		}
		if len(sort) != 2 || !slices.Contains(p.SortFields, sort[0]) {
			return q, badParam("sort", "Ordenação inválida. Campos aceitos: "+strings.Join(p.SortFields, ", ")+".")
		}
		switch strings.ToUpper(sort[1]) {
		case "ASC":
		case "DESC":
			q.Descending = true
		default:
			return q, badParam("sort", "A direção da ordenação deve ser ASC ou DESC.")
		}
		q.SortField = sort[0]
	}
	if raw := v.Get("filter"); raw != "" {
		if filter == nil {
			return q, badParam("filter", "Esta lista não aceita filtros.")
		}
		if err := DecodeParam(raw, "filter", filter); err != nil {
			return q, err
		}
	}
	return q, nil
}
