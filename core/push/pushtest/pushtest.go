// Package pushtest is a local Web Push service for tests and benchmarks: it
// stands in for FCM/Mozilla autopush, holds each fake device's private keys,
// checks the VAPID signature and decrypts every push (RFC 8291, aes128gcm)
// the way a browser would, so a test sees exactly what a device would show.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/vetclube/vetclube/core/push"
)

// Device is one browser's push subscription and its private keys.
type Device struct {
	ID   string
	key  *ecdh.PrivateKey
	auth []byte
	sub  push.BrowserSubscription
}

// Subscription is what the device's browser would send to the server.
func (d *Device) Subscription() push.BrowserSubscription { return d.sub }

// Received is one push a device got.
type Received struct {
	Device  string
	Payload push.Payload
	Raw     []byte
	TTL     string
	Urgency string
	Topic   string
	At      time.Time
}

// Reply is the push service's answer to one request: status and an
// optional Retry-After value. The zero Reply is 201 Created.
type Reply struct {
	Status     int
	RetryAfter string
}

// Server is the local push service.
type Server struct {
	srv *httptest.Server
	// VAPIDPublicKey, when set, is the key every request must be signed with.
	VAPIDPublicKey string
	// Delay is how long each request takes to answer.
	Delay time.Duration

	mu       sync.Mutex
	devices  map[string]*Device
	script   map[string][]Reply
	attempts map[string]int
	got      []Received
	errs     []error
	notify   chan struct{}
}

// NewServer starts a push service on 127.0.0.1.
func NewServer() *Server {
	s := &Server{devices: map[string]*Device{}, script: map[string][]Reply{}, attempts: map[string]int{}, notify: make(chan struct{}, 1)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// URL is the server's base URL.
func (s *Server) URL() string { return s.srv.URL }

// NewDevice registers a device with fresh keys.
func (s *Server) NewDevice(id string) *Device {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	d := &Device{ID: id, key: key, auth: auth}
	d.sub.Endpoint = s.srv.URL + "/push/" + id
	d.sub.Keys.P256dh = base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes())
	d.sub.Keys.Auth = base64.RawURLEncoding.EncodeToString(auth)
	s.mu.Lock()
	s.devices[id] = d
	s.mu.Unlock()
	return d
}

// Script sets the answers to a device's next requests, in order; after
// them every request gets 201.
func (s *Server) Script(deviceID string, replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script[deviceID] = replies
}

// Received returns every push successfully delivered so far.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// Attempts is how many requests reached deviceID (answered or not).
func (s *Server) Attempts(deviceID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts[deviceID]
}

// Errors returns the requests the server refused as malformed.
func (s *Server) Errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

// Changed is signalled (without blocking) after each request.
func (s *Server) Changed() <-chan struct{} { return s.notify }

func (s *Server) fail(w http.ResponseWriter, err error) {
	s.mu.Lock()
	s.errs = append(s.errs, err)
	s.mu.Unlock()
	http.Error(w, err.Error(), http.StatusBadRequest)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	defer func() {
		select {
		case s.notify <- struct{}{}:
		default:
		}
	}()
	id := strings.TrimPrefix(r.URL.Path, "/push/")
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	d := s.devices[id]
	s.attempts[id]++
	var reply Reply
	if q := s.script[id]; len(q) > 0 {
		reply, s.script[id] = q[0], q[1:]
	}
	s.mu.Unlock()
	if s.Delay > 0 {
		time.Sleep(s.Delay)
	}
	if d == nil {
		http.Error(w, "no such subscription", http.StatusGone)
		return
	}
	if reply.Status != 0 && reply.Status != http.StatusCreated {
		if reply.RetryAfter != "" {
			w.Header().Set("Retry-After", reply.RetryAfter)
		}
		w.WriteHeader(reply.Status)
		return
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" {
		s.fail(w, fmt.Errorf("content-encoding %q", r.Header.Get("Content-Encoding")))
		return
	}
	if err := s.checkVAPID(r); err != nil {
		s.fail(w, err)
		return
	}
	plain, err := Decrypt(body, d.key, d.auth)
	if err != nil {
		s.fail(w, err)
		return
	}
	var p push.Payload
	if err := json.Unmarshal(plain, &p); err != nil {
		s.fail(w, fmt.Errorf("payload %q: %w", plain, err))
		return
	}
	s.mu.Lock()
	s.got = append(s.got, Received{Device: id, Payload: p, Raw: plain, TTL: r.Header.Get("TTL"),
		Urgency: r.Header.Get("Urgency"), Topic: r.Header.Get("Topic"), At: time.Now()})
	s.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}

// checkVAPID verifies the Authorization header (RFC 8292): "vapid t=<JWT>,
// k=<public key>", the JWT signed ES256 by that key for this origin.
func (s *Server) checkVAPID(r *http.Request) error {
	h := r.Header.Get("Authorization")
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return fmt.Errorf("authorization %q is not vapid", h)
	}
	var token, key string
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			token = v
		case "k":
			key = v
		}
	}
	if s.VAPIDPublicKey != "" && key != s.VAPIDPublicKey {
		return fmt.Errorf("vapid key %q, want %q", key, s.VAPIDPublicKey)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return errors.New("vapid token is not a JWT")
	}
	pub, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil || len(pub) != 65 {
		return errors.New("vapid k is not a P-256 point")
	}
	vapidKey, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pub)
	if err != nil {
		return errors.New("vapid k is not on the curve")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return errors.New("vapid signature malformed")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(vapidKey, digest[:],
		new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("vapid signature does not verify")
	}
	claims, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return errors.New("vapid claims malformed")
	}
	var c struct {
		Aud string `json:"aud"`
		Sub string `json:"sub"`
		Exp int64  `json:"exp"`
	}
	if err := json.Unmarshal(claims, &c); err != nil {
		return errors.New("vapid claims malformed")
	}
	if c.Aud != "http://"+r.Host || c.Exp < time.Now().Unix() || c.Sub == "" {
		return fmt.Errorf("vapid claims %+v for host %s", c, r.Host)
	}
	return nil
}

// Decrypt opens an aes128gcm push body (RFC 8188 framing, RFC 8291 keys)
// with the receiving device's private key and auth secret.
func Decrypt(body []byte, key *ecdh.PrivateKey, auth []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("push body too short")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || idlen != 65 || rs < 18 {
		return nil, errors.New("push body header malformed")
	}
	senderPub, ciphertext := body[21:21+idlen], body[21+idlen:]
	if uint32(len(ciphertext)) > rs {
		return nil, errors.New("push body has more than one record")
	}
	sender, err := ecdh.P256().NewPublicKey(senderPub)
	if err != nil {
		return nil, fmt.Errorf("sender key: %w", err)
	}
	shared, err := key.ECDH(sender)
	if err != nil {
		return nil, err
	}
	// RFC 8291 §3.4: the auth secret and both public keys bind the content
	// key to this subscription.
	prkKey, err := hkdf.Extract(sha256.New, shared, auth)
	if err != nil {
		return nil, err
	}
	info := "WebPush: info\x00" + string(key.PublicKey().Bytes()) + string(senderPub)
	ikm, err := hkdf.Expand(sha256.New, prkKey, info, 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, fmt.Errorf("decrypt push: %w", err)
	}
	// The last record ends with the delimiter 0x02 followed by zero padding.
	end := bytes.LastIndexByte(plain, 2)
	if end < 0 || bytes.IndexFunc(plain[end+1:], func(r rune) bool { return r != 0 }) >= 0 {
		return nil, errors.New("push padding malformed")
	}
	return plain[:end], nil
}
