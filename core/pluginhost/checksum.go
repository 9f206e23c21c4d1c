package pluginhost

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// ChecksumFile is where the SHA-256 recorded at build or install time lives:
// beside the binary, in sha256sum's format.
func ChecksumFile(binary string) string { return binary + ".sha256" }

// FileSHA256 returns the hex SHA-256 of the file at path.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// RecordChecksum writes the binary's checksum file, as `make plugins` does.
func RecordChecksum(binary string) error {
	sum, err := FileSHA256(binary)
	if err != nil {
		return err
	}
	return os.WriteFile(ChecksumFile(binary), []byte(sum+"  "+baseName(binary)+"\n"), 0o644)
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// verifyChecksum compares the binary with its recorded checksum and returns
// the checksum, which go-plugin checks again when it executes the file.
func verifyChecksum(binary string) (string, error) {
	raw, err := os.ReadFile(ChecksumFile(binary))
	if err != nil {
		return "", fmt.Errorf("no recorded checksum (%s): %w", ChecksumFile(binary), err)
	}
	fields := strings.Fields(string(raw))
	if len(fields) == 0 || len(fields[0]) != 64 {
		return "", fmt.Errorf("malformed checksum file %s", ChecksumFile(binary))
	}
	want := strings.ToLower(fields[0])
	got, err := FileSHA256(binary)
	if err != nil {
		return "", err
	}
	if got != want {
		return "", fmt.Errorf("sha256 %s does not match the recorded %s", got, want)
	}
	return got, nil
}
