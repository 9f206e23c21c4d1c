package media

import (
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
)

func TestSniffRecognisesFormatsFromTheirBytes(t *testing.T) {
	ftyp := func(brand string) []byte {
		return append([]byte{0, 0, 0, 0x20}, []byte("ftyp"+brand+"\x00\x00\x02\x00isomiso2")...)
	}
	ebml := func(doctype string) []byte {
		return append([]byte{0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88}, []byte(doctype)...)
	}
	cases := []struct {
		name string
		head []byte
		want Format
		ok   bool
	}{
		{"mp4 isom", ftyp("isom"), Format{KindVideo, "mp4", "video/mp4"}, true},
		{"mp4 mp42", ftyp("mp42"), Format{KindVideo, "mp4", "video/mp4"}, true},
		{"mov", ftyp("qt  "), Format{KindVideo, "mov", "video/quicktime"}, true},
		{"webm", ebml("webm"), Format{KindVideo, "webm", "video/webm"}, true},
		{"mkv", ebml("matroska"), Format{KindVideo, "mkv", "video/x-matroska"}, true},
		{"heic is not a video", ftyp("heic"), Format{}, false},
		{"m4a audio is not a video", ftyp("M4A "), Format{}, false},
		{"ebml without a known doctype", ebml("other"), Format{}, false},
		{"jpeg", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'}, Format{KindImage, "jpg", "image/jpeg"}, true},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), Format{KindImage, "png", "image/png"}, true},
		{"webp", []byte("RIFF\x24\x00\x00\x00WEBPVP8 "), Format{KindImage, "webp", "image/webp"}, true},
		{"gif89a", []byte("GIF89a\x01\x00"), Format{KindImage, "gif", "image/gif"}, true},
		{"gif87a", []byte("GIF87a\x01\x00"), Format{KindImage, "gif", "image/gif"}, true},
		{"pdf", []byte("%PDF-1.7\n%\xe2\xe3"), Format{KindDocument, "pdf", "application/pdf"}, true},
		{"text", []byte("hello, this is not a video"), Format{}, false},
		{"riff wave", []byte("RIFF\x24\x00\x00\x00WAVEfmt "), Format{}, false},
		{"empty", nil, Format{}, false},
		{"short ftyp", []byte("\x00\x00\x00\x08ftyp"), Format{}, false},
		{"unknown brand", ftyp("jp2 "), Format{}, false},
		{"DASH manifest imitating an ftyp box", []byte("<!--ftypisom-->\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\">"), Format{}, false},
		{"ftyp box larger than a header", append([]byte{0, 0, 0x10, 0}, []byte("ftypisom\x00\x00\x02\x00isomiso2")...), Format{}, false},
	}
	for _, c := range cases {
		got, ok := Sniff(c.head)
		if ok != c.ok || got != c.want {
			t.Errorf("%s: Sniff = %+v, %v; want %+v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestCheckBytesRefusesAnotherKind(t *testing.T) {
	if _, err := checkBytes(KindVideo, []byte("\x89PNG\r\n\x1a\n")); err == nil || err.Error() != MsgNotVideo {
		t.Errorf("png as video: %v, want %q", err, MsgNotVideo)
	}
	if _, err := checkBytes(KindDocument, []byte{0xFF, 0xD8, 0xFF}); err == nil || err.Error() != MsgNotPDF {
		t.Errorf("jpeg as pdf: %v, want %q", err, MsgNotPDF)
	}
	if f, err := checkBytes(KindVideo, []byte("\x00\x00\x00\x14ftypqt  \x00\x00\x02\x00qt  ")); err != nil || f.Ext != "mov" {
		t.Errorf("mov bytes in a video: %+v, %v", f, err)
	}
}

func TestCheckDeclared(t *testing.T) {
	cases := []struct {
		name, filename, filetype string
		size                     int64
		kind                     Kind
		code, msg                string
	}{
		{"video", "Aula 1.MP4", "video/mp4", 10 << 20, KindVideo, "", ""},
		{"mkv with the browser's type", "a.mkv", "video/x-matroska", 1, KindVideo, "", ""},
		{"no type from the browser", "a.mov", "", 1, KindVideo, "", ""},
		{"octet-stream", "a.webm", "application/octet-stream", 1, KindVideo, "", ""},
		{"video at the limit", "a.mp4", "video/mp4", MaxVideoBytes, KindVideo, "", ""},
		{"video over the limit", "a.mp4", "video/mp4", MaxVideoBytes + 1, "", core.ETOOLARGE, MsgVideoTooLarge},
		{"image", "foto.jpeg", "image/jpeg", 1 << 20, KindImage, "", ""},
		{"image over the limit", "foto.png", "image/png", MaxImageBytes + 1, "", core.ETOOLARGE, MsgImageTooLarge},
		{"pdf", "apostila.pdf", "application/pdf", 1, KindDocument, "", ""},
		{"pdf over the limit", "apostila.pdf", "application/pdf", MaxDocumentBytes + 1, "", core.ETOOLARGE, MsgPDFTooLarge},
		{"no name", "  ", "video/mp4", 1, "", core.EINVALID, MsgNoFilename},
		{"unknown extension", "setup.exe", "", 1, "", core.EINVALID, MsgBadExtension},
		{"no extension", "video", "video/mp4", 1, "", core.EINVALID, MsgBadExtension},
		{"type contradicts the name", "a.mp4", "image/png", 1, "", core.EINVALID, "O tipo informado (image/png) não corresponde à extensão do arquivo."},
		{"empty", "a.mp4", "video/mp4", 0, "", core.EINVALID, MsgEmpty},
		{"control character", "a\x07.mp4", "video/mp4", 1, "", core.EINVALID, MsgBadFilename},
		{"line break", "a\n.mp4", "video/mp4", 1, "", core.EINVALID, MsgBadFilename},
		{"too long", strings.Repeat("a", 252) + ".mp4", "video/mp4", 1, "", core.EINVALID, MsgBadFilename},
	}
	for _, c := range cases {
		kind, err := CheckDeclared(c.filename, c.filetype, c.size)
		if c.code == "" {
			if err != nil || kind != c.kind {
				t.Errorf("%s: %q, %v; want %q", c.name, kind, err, c.kind)
			}
			continue
		}
		if core.ErrorCode(err) != c.code || core.ErrorMessage(err) != c.msg {
			t.Errorf("%s: %v; want %s %q", c.name, err, c.code, c.msg)
		}
	}
}

func TestMasterPlaylistListsRenditionsAndSubtitles(t *testing.T) {
	got := masterPlaylist([]renditionRecord{
		{Name: "720p", Width: 1280, Height: 720, BandwidthBps: 2_800_000, Playlist: "720p/index.m3u8"},
		{Name: "360p", Width: 640, Height: 360, BandwidthBps: 800_000, Playlist: "360p/index.m3u8"},
	}, []subtitleRecord{{Language: "por", Name: "Português", File: "subs/1.vtt", Playlist: "subs/1.m3u8"}})
	want := "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n" +
		"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"Português\",DEFAULT=YES,AUTOSELECT=YES,LANGUAGE=\"por\",URI=\"subs/1.m3u8\"\n" +
		"#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,SUBTITLES=\"subs\"\n360p/index.m3u8\n" +
		"#EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=1280x720,SUBTITLES=\"subs\"\n720p/index.m3u8\n"
	if got != want {
		t.Errorf("master:\n%s\nwant:\n%s", got, want)
	}
	plain := masterPlaylist([]renditionRecord{{Name: "360p", Width: 640, Height: 360, BandwidthBps: 1, Playlist: "360p/index.m3u8"}}, nil)
	if strings.Contains(plain, "SUBTITLES") {
		t.Errorf("no tracks, yet a SUBTITLES group:\n%s", plain)
	}
}

func TestCheckProbeLimits(t *testing.T) {
	ok := Probe{DurationSeconds: 600, Width: 1920, Height: 1080, FrameRate: 30}
	for _, tc := range []struct {
		p    Probe
		size int64
		want string
	}{
		{ok, 50 << 20, ""},
		{ok, 0, ""},
		{Probe{DurationSeconds: 4*3600 + 1, Width: 640, Height: 360}, 4 << 30, MsgVideoTooLong},
		{Probe{DurationSeconds: 10, Width: 640, Height: 360, FrameRate: 1000}, 10 << 20, "A taxa de quadros do vídeo (1000 por segundo) passa do limite de 120."},
		{Probe{DurationSeconds: 10, Width: 8192, Height: 4320}, 10 << 20, "A resolução do vídeo (8192×4320) passa do limite de 7680×4320."},
		{Probe{DurationSeconds: 10, Width: 4320, Height: 7680}, 10 << 20, ""},
		{Probe{DurationSeconds: 36000, Width: 640, Height: 360}, 9500, MsgVideoTooLong},
		{Probe{DurationSeconds: 1200, Width: 640, Height: 360}, 1500, "O arquivo é pequeno demais para a duração que declara (20min): ele parece corrompido ou adulterado."},
	} {
		err := CheckProbe(tc.p, tc.size)
		if got := core.ErrorMessage(err); (err == nil) != (tc.want == "") || err != nil && got != tc.want {
			t.Errorf("CheckProbe(%+v, %d) = %q, want %q", tc.p, tc.size, got, tc.want)
		}
	}
}
