// Package sqlwire is the SQL wire format of the host API, shared by the
// core's host and the plugin test kit (plugins/sdk/sdktest), so a query
// that works in a plugin's own tests encodes and decodes exactly as it will
// in the core. Plugins never import it (it brings pgx).
package sqlwire

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// DecodeArgs turns the JSON argument array into values pgx encodes: whole
// numbers as int64, other numbers as float64, objects and arrays as JSON text.
func DecodeArgs(raw []byte) ([]any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("args must be a JSON array: %w", err)
	}
	out := make([]any, len(items))
	for i, it := range items {
		s := strings.TrimSpace(string(it))
		switch {
		case s == "null":
			out[i] = nil
		case s == "true" || s == "false":
			out[i] = s == "true"
		case strings.HasPrefix(s, `"`):
			var v string
			if err := json.Unmarshal(it, &v); err != nil {
				return nil, err
			}
			out[i] = v
		case strings.HasPrefix(s, "{") || strings.HasPrefix(s, "["):
			out[i] = s
		default:
			var n json.Number
			if err := json.Unmarshal(it, &n); err != nil {
				return nil, err
			}
			if v, err := n.Int64(); err == nil {
				out[i] = v
			} else if f, err := n.Float64(); err == nil {
				out[i] = f
			} else {
				return nil, fmt.Errorf("arg %d: %w", i+1, err)
			}
		}
	}
	return out, nil
}

// RowsJSON renders query rows as a JSON array of objects.
func RowsJSON(rows pgx.Rows) ([]byte, error) {
	defer rows.Close()
	fields := rows.FieldDescriptions()
	out := []map[string]any{}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		row := make(map[string]any, len(vals))
		for i, v := range vals {
			switch x := v.(type) {
			case [16]byte: // uuid
				row[fields[i].Name] = fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
			case time.Time:
				row[fields[i].Name] = x.UTC().Format(time.RFC3339Nano)
			default:
				row[fields[i].Name] = v
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return json.Marshal(out)
}
