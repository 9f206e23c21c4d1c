package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func s3Env(over map[string]string) map[string]string {
	env := map[string]string{
		"DATA_DIR":             "/srv/vetclube",
		"S3_ENDPOINT":          "s3.sa-east-1.amazonaws.com",
		"S3_BUCKET":            "vetclube-arquivos",
		"S3_PRIVATE_BUCKET":    "vetclube-originais",
		"S3_ACCESS_KEY_ID":     "AKIA",
		"S3_SECRET_ACCESS_KEY": "segredo",
	}
	for k, v := range over {
		env[k] = v
	}
	return env
}

func TestS3IsOffWithoutABucket(t *testing.T) {
	c, err := load(t, map[string]string{"S3_ENDPOINT": "s3.example.com", "S3_PUBLIC_URL": "https://cdn.example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	if c.S3() || c.S3PublicURL != "" {
		t.Errorf("S3 on (%v) or public URL %q without S3_BUCKET", c.S3(), c.S3PublicURL)
	}
}

func TestS3Settings(t *testing.T) {
	c, err := load(t, s3Env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !c.S3() || !c.S3UseSSL || c.S3PublicURL != "https://s3.sa-east-1.amazonaws.com/vetclube-arquivos/" ||
		c.S3CacheDir != filepath.Join("/srv/vetclube", "s3-cache") {
		t.Errorf("defaults: on %v ssl %v public %q cache %q", c.S3(), c.S3UseSSL, c.S3PublicURL, c.S3CacheDir)
	}
	c, err = load(t, s3Env(map[string]string{"S3_USE_SSL": "false", "S3_ENDPOINT": "minio:9000",
		"S3_PUBLIC_URL": "https://cdn.vetclube.com.br/arquivos", "S3_CACHE_DIR": "/var/cache/vc", "S3_REGION": "auto"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.S3UseSSL || c.S3PublicURL != "https://cdn.vetclube.com.br/arquivos/" || c.S3CacheDir != "/var/cache/vc" || c.S3Region != "auto" {
		t.Errorf("set: ssl %v public %q cache %q region %q", c.S3UseSSL, c.S3PublicURL, c.S3CacheDir, c.S3Region)
	}
}

func TestS3RejectsIncompleteSettings(t *testing.T) {
	for name, over := range map[string]map[string]string{
		"S3_ENDPOINT":          {"S3_ENDPOINT": ""},
		"S3_ENDPOINT ":         {"S3_ENDPOINT": "https://s3.example.com"},
		"S3_PRIVATE_BUCKET":    {"S3_PRIVATE_BUCKET": ""},
		"S3_PRIVATE_BUCKET ":   {"S3_PRIVATE_BUCKET": "vetclube-arquivos"},
		"S3_SECRET_ACCESS_KEY": {"S3_SECRET_ACCESS_KEY": ""},
		"S3_PUBLIC_URL":        {"S3_PUBLIC_URL": "cdn.example.com"},
		"S3_PUBLIC_URL ":       {"S3_PUBLIC_URL": "ftp://cdn.example.com/"},
	} {
		if _, err := load(t, s3Env(over)); err == nil || !strings.Contains(err.Error(), strings.TrimSpace(name)) {
			t.Errorf("%v: err %v, want one naming %s", over, err, name)
		}
	}
}
