package app

import (
	"context"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/storage"
	"github.com/vetclube/vetclube/core/storage/s3fake"
)

func storesFor(t *testing.T, env map[string]string) (stores, error) {
	t.Helper()
	env["DATA_DIR"] = t.TempDir()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return newStores(context.Background(), cfg)
}

// Files stay on local disk unless S3_BUCKET is set; then both the public
// and the private store are S3 buckets and /uploads/ still serves the disk.
func TestS3StoreChoice(t *testing.T) {
	st, err := storesFor(t, map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.public.(*storage.Disk); !ok || st.public.URL("a/b.jpg") != "/uploads/a/b.jpg" {
		t.Errorf("default public store %T %s", st.public, st.public.URL("a/b.jpg"))
	}
	if _, ok := st.private.(*storage.Disk); !ok {
		t.Errorf("default private store %T", st.private)
	}

	fake := s3fake.Start(t, "publico", "privado")
	env := fake.Env("publico", "privado")
	env["S3_PUBLIC_URL"] = "https://cdn.vetclube.test/arquivos/"
	if st, err = storesFor(t, env); err != nil {
		t.Fatal(err)
	}
	pub, ok1 := st.public.(*storage.S3)
	priv, ok2 := st.private.(*storage.S3)
	if !ok1 || !ok2 || st.disk == nil {
		t.Fatalf("S3 stores: %T %T disk %v", st.public, st.private, st.disk)
	}
	if pub.URL("a/b.jpg") != "https://cdn.vetclube.test/arquivos/a/b.jpg" || priv.URL("a/b.mp4") != "s3://privado/a/b.mp4" {
		t.Errorf("URLs %s %s", pub.URL("a/b.jpg"), priv.URL("a/b.mp4"))
	}

	env["S3_PRIVATE_BUCKET"] = "inexistente"
	if _, err := storesFor(t, env); err == nil || !strings.Contains(err.Error(), "S3_PRIVATE_BUCKET") {
		t.Errorf("missing private bucket: %v", err)
	}
}
