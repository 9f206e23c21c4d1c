package profiles_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/imaging"
	"github.com/vetclube/vetclube/core/imaging/imagingtest"
	"github.com/vetclube/vetclube/core/profiles"
)

func multipartAvatar(t *testing.T, c *apptest.Client, field string, data []byte) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("note", "ignored")
	fw, err := mw.CreateFormFile(field, "foto.png")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	req, err := http.NewRequest("POST", c.URLFor("/api/profile/avatar"), &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.Send(req)
}

type apiError struct {
	Error struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
	} `json:"error"`
}

func TestOwnProfileOverHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	ana, anaID := srv.SignedIn(t, "ana@example.com")
	bruno, brunoID := srv.SignedIn(t, "bruno@example.com")

	var p profiles.Profile
	res := ana.Do("GET", "/api/profile", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("GET /api/profile: %d %s", res.Status, res.Body)
	}
	res.JSON(t, &p)
	if p.ID != anaID || p.Email != "ana@example.com" || p.FirstName != "ana" || p.LastName != "Teste" || p.TimeZone != "America/Sao_Paulo" {
		t.Errorf("auto-created profile %+v", p)
	}

	var c profiles.Completeness
	ana.Do("GET", "/api/profile/completeness", nil).JSON(t, &c)
	if c.Complete || strings.Join(c.Missing, ",") != "title,biography,specialties" {
		t.Errorf("completeness before: %+v", c)
	}

	update := map[string]any{
		"first_name": "Ana", "last_name": "Souza", "title": "Médica-veterinária",
		"biography": "Atendo cães e gatos há dez anos.", "specialties": []string{"clinica_geral", "dermatologia"},
		"has_crmv": true, "crmv": "crmv/sp 12345", "phone": "(11) 98765-4321", "has_whatsapp": true,
		"is_not_veterinarian": false, "cpf": "529.982.247-25", "time_zone": "America/Recife",
	}
	res = ana.Do("PUT", "/api/profile", update)
	if res.Status != http.StatusOK {
		t.Fatalf("PUT /api/profile: %d %s", res.Status, res.Body)
	}
	res.JSON(t, &p)
	if p.CRMV != "CRMV-SP 12345" || p.Phone != "11987654321" || p.TimeZone != "America/Recife" || p.ID != anaID {
		t.Errorf("saved %+v", p)
	}
	ana.Do("GET", "/api/profile/completeness", nil).JSON(t, &c)
	if !c.Complete || len(c.Missing) != 0 {
		t.Errorf("completeness after: %+v", c)
	}

	// Bruno's own profile is untouched by Ana's update.
	var b profiles.Profile
	bruno.Do("GET", "/api/profile", nil).JSON(t, &b)
	if b.ID != brunoID || b.FirstName != "bruno" || b.Title != "" {
		t.Errorf("another member's profile changed: %+v", b)
	}

	// No request field can aim the update at someone else.
	withID := map[string]any{"id": brunoID}
	for k, v := range update {
		withID[k] = v
	}
	res = ana.Do("PUT", "/api/profile", withID)
	var e apiError
	res.JSON(t, &e)
	if res.Status != http.StatusUnprocessableEntity || e.Error.Fields["id"] != "Campo desconhecido." {
		t.Errorf("PUT with an id: %d %s", res.Status, res.Body)
	}

	bad := map[string]any{}
	for k, v := range update {
		bad[k] = v
	}
	bad["title"], bad["biography"], bad["crmv"], bad["phone"] = "Dr", "curta", "CRMV-ZZ 1", "123"
	res = ana.Do("PUT", "/api/profile", bad)
	e = apiError{}
	res.JSON(t, &e)
	if res.Status != http.StatusUnprocessableEntity || e.Error.Message != "Erro ao atualizar perfil" ||
		e.Error.Fields["title"] != "O título deve ter pelo menos 3 caracteres." ||
		e.Error.Fields["biography"] != "A biografia deve ter pelo menos 10 caracteres." ||
		!strings.HasPrefix(e.Error.Fields["crmv"], "UF do CRMV inválida: ZZ") ||
		!strings.HasPrefix(e.Error.Fields["phone"], "Telefone inválido") {
		t.Errorf("invalid PUT: %d %s", res.Status, res.Body)
	}
	var after profiles.Profile
	ana.Do("GET", "/api/profile", nil).JSON(t, &after)
	if after.Title != p.Title || after.CRMV != p.CRMV {
		t.Errorf("invalid PUT changed the profile: %+v", after)
	}

	// Visitors see no private profile.
	if res := srv.Client(t).Do("GET", "/api/profile", nil); res.Status != http.StatusUnauthorized {
		t.Errorf("visitor GET /api/profile: %d", res.Status)
	}
}

func TestPublicProfileOverHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	ana, anaID := srv.SignedIn(t, "ana@example.com")
	res := ana.Do("PUT", "/api/profile", map[string]any{
		"first_name": "Ana", "last_name": "Souza", "title": "Cirurgiã", "biography": "Cirurgia de tecidos moles.",
		"specialties": []string{"cirurgia"}, "has_crmv": true, "crmv": "CRMV-MG 4321", "phone": "31 3456-7890",
		"has_whatsapp": false, "is_not_veterinarian": false, "cpf": "11144477735",
	})
	if res.Status != http.StatusOK {
		t.Fatalf("PUT: %d %s", res.Status, res.Body)
	}
	visitor := srv.Client(t)
	res = visitor.Do("GET", "/api/profiles/"+anaID, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("public profile: %d %s", res.Status, res.Body)
	}
	var fields map[string]any
	res.JSON(t, &fields)
	for _, private := range []string{"email", "phone", "cpf", "time_zone", "has_whatsapp"} {
		if _, ok := fields[private]; ok {
			t.Errorf("public profile exposes %s: %s", private, res.Body)
		}
	}
	for _, secret := range []string{"ana@example.com", "3134567890", "11144477735"} {
		if bytes.Contains(res.Body, []byte(secret)) {
			t.Errorf("public profile leaks %s", secret)
		}
	}
	if fields["first_name"] != "Ana" || fields["title"] != "Cirurgiã" || fields["crmv"] != "CRMV-MG 4321" {
		t.Errorf("public profile %s", res.Body)
	}
	for _, id := range []string{"7d444840-9dc0-11d1-b245-5ffdce74fad2", "nao-e-um-id"} {
		res := visitor.Do("GET", "/api/profiles/"+id, nil)
		if res.Status != http.StatusNotFound || res.ErrorMessage() != "Usuário não encontrado" {
			t.Errorf("GET /api/profiles/%s: %d %s", id, res.Status, res.Body)
		}
	}

	var sp struct {
		Specialties []profiles.Specialty `json:"specialties"`
	}
	visitor.Do("GET", "/api/specialties", nil).JSON(t, &sp)
	if len(sp.Specialties) != 12 || sp.Specialties[0] != (profiles.Specialty{Value: "clinica_geral", Label: "Clínica Geral"}) ||
		sp.Specialties[11] != (profiles.Specialty{Value: "animais_silvestres", Label: "Animais Silvestres"}) {
		t.Errorf("specialties %+v", sp.Specialties)
	}
}

func TestAvatarUploadOverHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	ana, anaID := srv.SignedIn(t, "ana@example.com")

	var buf bytes.Buffer
	if err := png.Encode(&buf, testImage(800, 800, 255)); err != nil {
		t.Fatal(err)
	}
	res := multipartAvatar(t, ana, "avatar", buf.Bytes())
	if res.Status != http.StatusOK {
		t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	var out struct {
		AvatarURL string `json:"avatar_url"`
	}
	res.JSON(t, &out)
	if !strings.HasPrefix(out.AvatarURL, "/uploads/avatars/"+anaID+"/") {
		t.Fatalf("avatar_url %q", out.AvatarURL)
	}

	// Served publicly, cacheable for a year, and a real image.
	visitor := srv.Client(t)
	img := visitor.Do("GET", out.AvatarURL, nil)
	if img.Status != http.StatusOK || img.Header.Get("Content-Type") != "image/jpeg" ||
		!strings.Contains(img.Header.Get("Cache-Control"), "max-age=31536000") {
		t.Fatalf("GET %s: %d %v", out.AvatarURL, img.Status, img.Header)
	}
	decoded, format, err := image.Decode(bytes.NewReader(img.Body))
	if err != nil || format != "jpeg" || decoded.Bounds().Dx() != 512 {
		t.Fatalf("served avatar: %v %s %v", err, format, decoded)
	}
	var pub map[string]any
	visitor.Do("GET", "/api/profiles/"+anaID, nil).JSON(t, &pub)
	if pub["avatar_url"] != out.AvatarURL {
		t.Errorf("public avatar_url %v", pub["avatar_url"])
	}

	// Replacing it removes the old file.
	res = multipartAvatar(t, ana, "avatar", buf.Bytes())
	if res.Status != http.StatusOK {
		t.Fatalf("second upload: %d %s", res.Status, res.Body)
	}
	if old := visitor.Do("GET", out.AvatarURL, nil); old.Status != http.StatusNotFound {
		t.Errorf("replaced avatar still served: %d", old.Status)
	}

	cases := []struct {
		name, field string
		data        []byte
		msg         string
	}{
		{"not an image", "avatar", []byte("<html><script>alert(1)</script></html>"), "O arquivo enviado não é uma imagem válida."},
		{"over 5 MB", "avatar", append(buf.Bytes(), make([]byte, 5<<20)...), "A imagem deve ter no máximo 5 MB."},
		{"over the request limit", "avatar", make([]byte, 13<<20), "A imagem deve ter no máximo 5 MB."},
		{"wrong field", "foto", buf.Bytes(), "Selecione uma imagem para enviar."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := multipartAvatar(t, ana, tc.field, tc.data)
			var e apiError
			res.JSON(t, &e)
			if res.Status != http.StatusUnprocessableEntity || e.Error.Message != tc.msg || e.Error.Fields["avatar"] != tc.msg {
				t.Errorf("%d %s", res.Status, res.Body)
			}
		})
	}
	res = ana.Do("POST", "/api/profile/avatar", map[string]string{"avatar": "data:image/png;base64,AAAA"})
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "Envie a imagem como multipart/form-data, no campo avatar." {
		t.Errorf("JSON body: %d %s", res.Status, res.Body)
	}
	if res := multipartAvatar(t, srv.Client(t), "avatar", buf.Bytes()); res.Status != http.StatusUnauthorized {
		t.Errorf("visitor upload: %d", res.Status)
	}
}

// cutConn forwards the request line, the headers and the first bodyLimit
// bytes of the body, then half-closes the connection: the server sees the
// body end early, as when a phone loses signal mid-upload, while the
// answer can still be read.
type cutConn struct {
	net.Conn
	bodyLimit int
	mu        sync.Mutex
	sent      []byte
	closed    bool
}

func (c *cutConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return len(p), nil
	}
	start := len(c.sent)
	c.sent = append(c.sent, p...)
	end := bytes.Index(c.sent, []byte("\r\n\r\n"))
	if end < 0 || len(c.sent) <= end+4+c.bodyLimit {
		_, err := c.Conn.Write(p)
		return len(p), err
	}
	keep := end + 4 + c.bodyLimit - start
	if _, err := c.Conn.Write(p[:max(0, keep)]); err != nil {
		return 0, err
	}
	c.closed = true
	_ = c.Conn.(*net.TCPConn).CloseWrite()
	return len(p), nil
}

// Every way an upload can arrive broken is the client's problem: a 422 with
// a pt-BR message under the avatar field, never a 500.
func TestAvatarTruncatedUploadIs422(t *testing.T) {
	srv := apptest.Start(t, nil)
	ana, _ := srv.SignedIn(t, "ana@example.com")
	var img bytes.Buffer
	if err := png.Encode(&img, testImage(300, 300, 255)); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("avatar", "foto.png")
	fw.Write(img.Bytes())
	mw.Close()
	const msg = "Não foi possível ler o envio da imagem. Tente novamente."
	check := func(t *testing.T, res apptest.Response) {
		t.Helper()
		var e apiError
		res.JSON(t, &e)
		if res.Status != http.StatusUnprocessableEntity || e.Error.Message != msg || e.Error.Fields["avatar"] != msg {
			t.Errorf("%d %s", res.Status, res.Body)
		}
	}

	t.Run("multipart cut inside the file", func(t *testing.T) {
		// A complete HTTP body holding a multipart stream that stops in the
		// middle of the image, with no closing boundary.
		cut := body.Bytes()[:body.Len()/2]
		req, _ := http.NewRequest("POST", ana.URLFor("/api/profile/avatar"), bytes.NewReader(cut))
		req.Header.Set("Content-Type", mw.FormDataContentType())
		check(t, ana.Send(req))
	})

	t.Run("connection cut before Content-Length", func(t *testing.T) {
		cutClient := *ana
		cutClient.HTTP = &http.Client{Jar: ana.HTTP.Jar, Transport: &http.Transport{
			DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return &cutConn{Conn: conn, bodyLimit: body.Len() / 2}, nil
			},
		}}
		req, _ := http.NewRequest("POST", ana.URLFor("/api/profile/avatar"), bytes.NewReader(body.Bytes()))
		req.Header.Set("Content-Type", mw.FormDataContentType())
		check(t, cutClient.Send(req))
	})

	// Nothing was saved by either attempt.
	var p profiles.Profile
	ana.Do("GET", "/api/profile", nil).JSON(t, &p)
	if p.AvatarURL != "" {
		t.Errorf("avatar %q saved from a truncated upload", p.AvatarURL)
	}
}

// The probe's hostile images over HTTP: a 422 in pt-BR from the header
// check.
func TestHostileAvatarOverHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	ana, _ := srv.SignedIn(t, "ana@example.com")
	res := multipartAvatar(t, ana, "avatar", imagingtest.PNG(50_000_000, 1, 8, imagingtest.Gray, -1))
	var e apiError
	res.JSON(t, &e)
	if want := imaging.DefaultLimits.MsgTooLarge(); res.Status != http.StatusUnprocessableEntity || e.Error.Message != want || e.Error.Fields["avatar"] != want {
		t.Errorf("%d %s", res.Status, res.Body)
	}
}

// A visitor's GET of a public profile leaves the profiles table exactly as
// it was, whether or not the member's profile exists yet.
func TestVisitorGetDoesNotWrite(t *testing.T) {
	srv := apptest.Start(t, nil)
	ana, anaID := srv.SignedIn(t, "ana@example.com")
	_, brunoID := srv.SignedIn(t, "bruno@example.com")
	if res := ana.Do("GET", "/api/profile", nil); res.Status != http.StatusOK {
		t.Fatalf("own profile: %d", res.Status)
	}
	snapshot := func() string {
		var s string
		err := srv.App.Pool.QueryRow(context.Background(),
			`SELECT count(*) || ':' || coalesce(string_agg(p::text, '|' ORDER BY user_id), '') FROM profiles p`).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := snapshot()
	visitor := srv.Client(t)
	for _, id := range []string{anaID, brunoID} {
		if res := visitor.Do("GET", "/api/profiles/"+id, nil); res.Status != http.StatusOK {
			t.Fatalf("GET /api/profiles/%s: %d %s", id, res.Status, res.Body)
		}
	}
	if after := snapshot(); after != before {
		t.Errorf("a visitor's GET changed profiles:\nbefore %s\nafter  %s", before, after)
	}
}
