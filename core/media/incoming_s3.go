package media

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/tus/tusd/v2/pkg/s3store"

	tusd "github.com/tus/tusd/v2/pkg/handler"
)

// S3IncomingOptions name the bucket holding uploads in progress.
type S3IncomingOptions struct {
	Endpoint        string // host[:port], no scheme
	UseSSL          bool
	Region          string // signing region; empty: us-east-1
	Bucket          string // a private bucket
	Prefix          string // key prefix of the tus objects, such as "tus/"
	AccessKeyID     string
	SecretAccessKey string
	// Dir holds the parts tusd buffers before sending them, and the local
	// copies of complete uploads while they are checked and stored.
	Dir string
}

// S3Incoming keeps uploads in an S3 bucket with tusd's S3 store (a
// multipart upload per file, its .info and a .part object for a last chunk
// under the minimum part size), so any instance resumes any upload. tusd's
// S3 store names an upload "<object>+<multipart id>"; the endpoint names it
// by the object alone (the asset's upload_id), and the multipart id is read
// back from the upload's .info, which never changes.
type S3Incoming struct {
	store  s3store.S3Store
	client *s3.Client
	bucket string
	prefix string
	dir    string

	mu  sync.Mutex
	ids map[string]string // object → tusd's id, a bounded cache
}

// maxCachedIDs bounds the object → multipart id cache; a miss costs one GET
// of the upload's .info.
const maxCachedIDs = 4096

// NewS3Incoming keeps uploads in o.Bucket under o.Prefix.
func NewS3Incoming(o S3IncomingOptions) (*S3Incoming, error) {
	if o.Bucket == "" || o.Endpoint == "" || o.Dir == "" {
		return nil, errors.New("media: S3 uploads need an endpoint, a bucket and a local directory")
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("media: incoming directory: %w", err)
	}
	scheme := "https://"
	if !o.UseSSL {
		scheme = "http://"
	}
	region := o.Region
	if region == "" {
		region = "us-east-1"
	}
	client := s3.New(s3.Options{
		BaseEndpoint: aws.String(scheme + o.Endpoint),
		Region:       region,
		UsePathStyle: true,
		Credentials:  aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(o.AccessKeyID, o.SecretAccessKey, "")),
		// Checksums only where S3 requires them: S3-compatible stores
		// (MinIO, R2, older Ceph) differ in the newer trailing ones.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
	store := s3store.New(o.Bucket, client)
	store.ObjectPrefix = strings.TrimSuffix(o.Prefix, "/")
	store.TemporaryDirectory = o.Dir
	return &S3Incoming{store: store, client: client, bucket: o.Bucket, prefix: store.ObjectPrefix, dir: o.Dir,
		ids: map[string]string{}}, nil
}

// UseIn gives tusd this store (core, termination, deferred length; no
// concatenation, no downloads).
func (in *S3Incoming) UseIn(c *tusd.StoreComposer) {
	c.UseCore(in)
	c.UseTerminater(in)
	c.UseLengthDeferrer(in)
}

// NewUpload starts the multipart upload under the endpoint's token.
func (in *S3Incoming) NewUpload(ctx context.Context, info tusd.FileInfo) (tusd.Upload, error) {
	token := info.ID
	if !validUploadID(token) {
		return nil, fmt.Errorf("media: S3 upload without a valid token %q", token)
	}
	up, err := in.store.NewUpload(ctx, info)
	if err != nil {
		return nil, err
	}
	full, err := up.GetInfo(ctx)
	if err != nil {
		return nil, err
	}
	in.remember(token, full.ID)
	return &s3TokenUpload{Upload: up, token: token}, nil
}

// GetUpload opens an upload by the endpoint's token.
func (in *S3Incoming) GetUpload(ctx context.Context, token string) (tusd.Upload, error) {
	full, err := in.fullID(ctx, token)
	if err != nil {
		return nil, err
	}
	up, err := in.store.GetUpload(ctx, full)
	if err != nil {
		return nil, err
	}
	return &s3TokenUpload{Upload: up, token: token}, nil
}

// Upload opens an upload (tusd.ErrNotFound when it has no .info).
func (in *S3Incoming) Upload(ctx context.Context, token string) (tusd.Upload, error) {
	return in.GetUpload(ctx, token)
}

// AsTerminatableUpload terminates through tusd's S3 store.
func (in *S3Incoming) AsTerminatableUpload(up tusd.Upload) tusd.TerminatableUpload {
	return in.store.AsTerminatableUpload(up.(*s3TokenUpload).Upload)
}

// AsLengthDeclarableUpload declares a deferred length through tusd's S3 store.
func (in *S3Incoming) AsLengthDeclarableUpload(up tusd.Upload) tusd.LengthDeclarableUpload {
	return in.store.AsLengthDeclarableUpload(up.(*s3TokenUpload).Upload)
}

// s3TokenUpload is an upload of tusd's S3 store that answers the
// endpoint's token as its id.
type s3TokenUpload struct {
	tusd.Upload
	token string
}

func (u *s3TokenUpload) GetInfo(ctx context.Context) (tusd.FileInfo, error) {
	info, err := u.Upload.GetInfo(ctx)
	info.ID = u.token
	return info, err
}

// Fetch downloads the complete object once into Dir (a copy already there,
// such as an imported file, is used as it is).
func (in *S3Incoming) Fetch(ctx context.Context, token string) (string, error) {
	p, err := in.Stage(token)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	res, err := in.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(in.bucket), Key: aws.String(in.key(token))})
	if isNotFound(err) {
		return "", fmt.Errorf("media: incoming %s: %w", token, fs.ErrNotExist)
	}
	if err != nil {
		return "", fmt.Errorf("media: fetch upload %s: %w", token, err)
	}
	defer res.Body.Close()
	tmp, err := os.CreateTemp(in.dir, token+".download-*")
	if err != nil {
		return "", fmt.Errorf("media: fetch upload %s: %w", token, err)
	}
	_, err = io.Copy(tmp, res.Body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("media: fetch upload %s: %w", token, err)
	}
	return p, nil
}

// Stage is the local copy's path in Dir.
func (in *S3Incoming) Stage(token string) (string, error) {
	if !validUploadID(token) {
		return "", fmt.Errorf("media: upload id %q: %w", token, fs.ErrNotExist)
	}
	return filepath.Join(in.dir, token), nil
}

// Remove aborts the multipart upload, deletes the object, its .info and
// .part, and the local copy.
func (in *S3Incoming) Remove(ctx context.Context, token string) error {
	p, err := in.Stage(token)
	if err != nil {
		return err
	}
	var errs []error
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	up, err := in.GetUpload(ctx, token)
	switch {
	case err == nil:
		errs = append(errs, in.AsTerminatableUpload(up).Terminate(ctx))
	case errors.Is(err, tusd.ErrNotFound):
		// No .info, so no multipart id: whatever objects are left go by name.
		_, err := in.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String(in.bucket), Delete: &types.Delete{
			Objects: []types.ObjectIdentifier{{Key: aws.String(in.key(token))}, {Key: aws.String(in.key(token + ".part"))}},
			Quiet:   aws.Bool(true),
		}})
		errs = append(errs, err)
	default:
		errs = append(errs, err)
	}
	in.forget(token)
	return errors.Join(errs...)
}

// Touched is the newest of the .info's, the .part's, the parts' and the
// complete object's last modification.
func (in *S3Incoming) Touched(ctx context.Context, token string) (time.Time, bool, error) {
	var latest time.Time
	found := false
	see := func(t *time.Time) {
		if t != nil && (!found || t.After(latest)) {
			latest, found = *t, true
		}
	}
	for _, k := range []string{token + ".info", token + ".part", token} {
		res, err := in.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(in.bucket), Key: aws.String(in.key(k))})
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return time.Time{}, false, fmt.Errorf("media: upload %s: %w", token, err)
		}
		see(res.LastModified)
	}
	if full, err := in.fullID(ctx, token); err == nil {
		_, multipart, _ := strings.Cut(full, "+")
		res, err := in.client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String(in.bucket), Key: aws.String(in.key(token)),
			UploadId: aws.String(multipart)})
		if err == nil {
			for _, part := range res.Parts {
				see(part.LastModified)
			}
		} else if !isNotFound(err) {
			return time.Time{}, false, fmt.Errorf("media: parts of upload %s: %w", token, err)
		}
	}
	return latest, found, nil
}

// Idle lists the uploads whose objects under the prefix, and local copy,
// all changed last before cutoff. Parts of a multipart upload are not objects yet: an
// upload still receiving them keeps an enviando asset, which the sweep
// checks before removing anything.
func (in *S3Incoming) Idle(ctx context.Context, cutoff time.Time) ([]string, error) {
	newest := map[string]time.Time{}
	pages := s3.NewListObjectsV2Paginator(in.client, &s3.ListObjectsV2Input{Bucket: aws.String(in.bucket), Prefix: aws.String(in.key(""))})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("media: list uploads: %w", err)
		}
		for _, o := range page.Contents {
			name := strings.TrimPrefix(aws.ToString(o.Key), in.key(""))
			id := strings.TrimSuffix(strings.TrimSuffix(name, ".info"), ".part")
			if !validUploadID(id) || o.LastModified == nil {
				continue
			}
			if t, ok := newest[id]; !ok || o.LastModified.After(t) {
				newest[id] = *o.LastModified
			}
		}
	}
	// Local copies a stopped finish left behind count as well (tusd's own
	// part buffers, "tusd-…", are not uploads).
	entries, err := os.ReadDir(in.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("media: incoming directory: %w", err)
	}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || strings.HasPrefix(e.Name(), "tusd-") || !validUploadID(e.Name()) {
			continue
		}
		if t, ok := newest[e.Name()]; !ok || fi.ModTime().After(t) {
			newest[e.Name()] = fi.ModTime()
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

func (in *S3Incoming) key(name string) string {
	if in.prefix == "" {
		return name
	}
	return in.prefix + "/" + name
}

// fullID is tusd's id of an upload: from the cache, or from its .info.
func (in *S3Incoming) fullID(ctx context.Context, token string) (string, error) {
	if !validUploadID(token) {
		return "", tusd.ErrNotFound
	}
	in.mu.Lock()
	full, ok := in.ids[token]
	in.mu.Unlock()
	if ok {
		return full, nil
	}
	res, err := in.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(in.bucket), Key: aws.String(in.key(token + ".info"))})
	if isNotFound(err) {
		return "", tusd.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("media: upload %s: %w", token, err)
	}
	defer res.Body.Close()
	var info tusd.FileInfo
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&info); err != nil {
		return "", fmt.Errorf("media: upload %s: .info: %w", token, err)
	}
	if obj, _, ok := strings.Cut(info.ID, "+"); !ok || obj != token {
		return "", fmt.Errorf("media: upload %s: .info names %q", token, info.ID)
	}
	in.remember(token, info.ID)
	return info.ID, nil
}

func (in *S3Incoming) remember(token, full string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.ids) >= maxCachedIDs {
		clear(in.ids)
	}
	in.ids[token] = full
}

func (in *S3Incoming) forget(token string) {
	in.mu.Lock()
	delete(in.ids, token)
	in.mu.Unlock()
}

// isNotFound recognises S3's answers for a missing key or multipart upload.
func isNotFound(err error) bool {
	if err == nil {
		return false
	}
	var nsk *types.NoSuchKey
	var nf *types.NotFound
	var nsu *types.NoSuchUpload
	if errors.As(err, &nsk) || errors.As(err, &nf) || errors.As(err, &nsu) {
		return true
	}
	var api smithy.APIError
	return errors.As(err, &api) && (api.ErrorCode() == "NoSuchKey" || api.ErrorCode() == "NotFound" || api.ErrorCode() == "NoSuchUpload")
}
