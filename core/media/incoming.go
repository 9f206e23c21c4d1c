package media

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tus/tusd/v2/pkg/filestore"
	tusd "github.com/tus/tusd/v2/pkg/handler"
)

// Incoming keeps tus uploads while their bytes arrive: on a directory every
// instance shares (DiskIncoming) or in an S3 bucket (S3Incoming). An upload
// is named by the token the endpoint gives it at creation (the asset's
// upload_id).
type Incoming interface {
	// UseIn gives tusd the store: its core, termination and deferred length.
	UseIn(c *tusd.StoreComposer)
	// Upload opens a tus upload (tusd.ErrNotFound when it has no record).
	Upload(ctx context.Context, uploadID string) (tusd.Upload, error)
	// Fetch returns a local file holding a complete upload's bytes, or an
	// error wrapping fs.ErrNotExist when the upload has none.
	Fetch(ctx context.Context, uploadID string) (string, error)
	// Stage is where Import copies a local file so that Fetch finds it.
	Stage(uploadID string) (string, error)
	// Remove deletes everything the upload left (its records, its bytes,
	// any local copy); an upload already gone is not an error.
	Remove(ctx context.Context, uploadID string) error
	// Touched is when the upload's bytes or records last changed; false
	// when it has none.
	Touched(ctx context.Context, uploadID string) (time.Time, bool, error)
	// Idle lists the uploads with records none of which changed since
	// cutoff.
	Idle(ctx context.Context, cutoff time.Time) ([]string, error)
}

// DiskIncoming keeps uploads in a directory: tusd's file store (the data
// file and its .info). Instances share it only if they share the directory
// (one machine, or a network file system).
type DiskIncoming struct{ dir string }

// NewDiskIncoming keeps uploads in dir, created if missing.
func NewDiskIncoming(dir string) (*DiskIncoming, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("media: incoming directory: %w", err)
	}
	return &DiskIncoming{dir: dir}, nil
}

func (d *DiskIncoming) files() filestore.FileStore { return filestore.New(d.dir) }

// UseIn gives tusd the file store.
func (d *DiskIncoming) UseIn(c *tusd.StoreComposer) { d.files().UseIn(c) }

// Upload opens an upload of the file store.
func (d *DiskIncoming) Upload(ctx context.Context, uploadID string) (tusd.Upload, error) {
	return d.files().GetUpload(ctx, uploadID)
}

// Fetch returns the upload's data file itself.
func (d *DiskIncoming) Fetch(_ context.Context, uploadID string) (string, error) {
	p, err := d.path(uploadID)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("media: incoming %s: %w", uploadID, err)
	}
	return p, nil
}

// Stage is the data file's own path: an imported file is a finished upload.
func (d *DiskIncoming) Stage(uploadID string) (string, error) { return d.path(uploadID) }

// Remove deletes the data file and its .info.
func (d *DiskIncoming) Remove(_ context.Context, uploadID string) error {
	p, err := d.path(uploadID)
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range []string{p, p + ".info"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Touched is the newest modification time of the data file and its .info
// (every PATCH chunk moves the data file's).
func (d *DiskIncoming) Touched(_ context.Context, uploadID string) (time.Time, bool, error) {
	p, err := d.path(uploadID)
	if err != nil {
		return time.Time{}, false, err
	}
	t, ok := newestMTime(p, p+".info")
	return t, ok, nil
}

// Idle lists the uploads whose files all changed last before cutoff.
func (d *DiskIncoming) Idle(_ context.Context, cutoff time.Time) ([]string, error) {
	entries, err := os.ReadDir(d.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("media: incoming directory: %w", err)
	}
	newest := map[string]time.Time{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		id := strings.TrimSuffix(e.Name(), ".info")
		if !validUploadID(id) {
			continue // not tusd's: Remove would refuse its name
		}
		if t, ok := newest[id]; !ok || fi.ModTime().After(t) {
			newest[id] = fi.ModTime()
		}
	}
	var idle []string
	for id, t := range newest {
		if t.Before(cutoff) {
			idle = append(idle, id)
		}
	}
	return idle, nil
}

// path refuses ids that would leave the directory (the endpoint's tokens
// are hexadecimal; the ids come from the database and from file names).
func (d *DiskIncoming) path(uploadID string) (string, error) {
	if !validUploadID(uploadID) {
		return "", fmt.Errorf("media: upload id %q: %w", uploadID, fs.ErrNotExist)
	}
	return filepath.Join(d.dir, uploadID), nil
}

// validUploadID accepts the endpoint's tokens: letters, digits, '-' and '_'.
func validUploadID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
		default:
			return false
		}
	}
	return true
}

// newestMTime is the latest modification time among the paths that exist.
func newestMTime(paths ...string) (time.Time, bool) {
	var latest time.Time
	found := false
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !found || st.ModTime().After(latest) {
			latest, found = st.ModTime(), true
		}
	}
	return latest, found
}
