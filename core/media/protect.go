package media

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/storage"
)

// MoveProtectedFiles moves the protected files of assets stored before they
// were kept private (files_private false: HLS playlists, segments and
// subtitles of videos, documents) from the public store to the private one,
// under the same keys, and marks each asset done. The server runs it at
// start, before it serves: afterwards /uploads/ no longer serves them and
// the stream endpoint finds them. It is idempotent; a file already moved or
// missing is skipped. It returns how many assets it moved.
func (s *Service) MoveProtectedFiles(ctx context.Context) (int, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, kind, original_key, hls_prefix, master_key, renditions, subtitles
		FROM media_assets WHERE NOT files_private AND kind IN ('video', 'document') ORDER BY created_at`)
	if err != nil {
		return 0, fmt.Errorf("media: protected files: %w", err)
	}
	type pending struct {
		id, originalKey, hlsPrefix, masterKey string
		kind                                  Kind
		rends                                 []renditionRecord
		subs                                  []subtitleRecord
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (pending, error) {
		var p pending
		return p, r.Scan(&p.id, &p.kind, &p.originalKey, &p.hlsPrefix, &p.masterKey, &p.rends, &p.subs)
	})
	if err != nil {
		return 0, fmt.Errorf("media: protected files: %w", err)
	}
	n := 0
	for _, p := range list {
		var keys []string
		if p.kind == KindDocument {
			if p.originalKey != "" {
				keys = append(keys, p.originalKey)
			}
		} else {
			// Segments before their playlist, the master last: a stop
			// half way leaves the rest to the next start.
			for _, r := range p.rends {
				pl := p.hlsPrefix + "/" + r.Playlist
				keys = append(keys, s.segmentsOf(pl)...)
				keys = append(keys, pl)
			}
			for _, t := range p.subs {
				keys = append(keys, p.hlsPrefix+"/"+t.File, p.hlsPrefix+"/"+t.Playlist)
			}
			if p.masterKey != "" {
				keys = append(keys, p.masterKey)
			}
		}
		for _, k := range keys {
			if err := s.moveToPrivate(ctx, k); err != nil {
				return n, err
			}
		}
		if _, err := s.pool.Exec(ctx, `UPDATE media_assets SET files_private = true WHERE id = $1`, p.id); err != nil {
			return n, fmt.Errorf("media: protected files of %s: %w", p.id, err)
		}
		n++
	}
	return n, nil
}

// segmentsOf lists the files a variant playlist in the public store names
// (its segments), as keys beside it.
func (s *Service) segmentsOf(playlist string) []string {
	p, err := s.public.LocalPath(playlist)
	if err != nil {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var keys []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.Contains(line, ":") || strings.HasPrefix(line, "/") {
			continue
		}
		k := path.Join(path.Dir(playlist), line)
		if relativeKey(line) && storage.ValidKey(k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// moveToPrivate moves key from the public store to the private one; a key
// not in the public store is skipped.
func (s *Service) moveToPrivate(ctx context.Context, key string) error {
	p, err := s.public.LocalPath(key)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("media: move %s: %w", key, err)
	}
	if err := s.private.PutFile(ctx, key, "", p); err != nil {
		// Another instance starting at the same time moved it first.
		if _, perr := s.private.LocalPath(key); perr == nil {
			return nil
		}
		return fmt.Errorf("media: move %s: %w", key, err)
	}
	if err := s.public.Delete(ctx, key); err != nil {
		return fmt.Errorf("media: move %s: %w", key, err)
	}
	return nil
}
