package media

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"strings"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// Kind is what an asset is: it decides its limits and its processing.
type Kind string

const (
	KindVideo    Kind = "video"
	KindImage    Kind = "image"
	KindDocument Kind = "document"
)

// Byte limits per kind.
const (
	MaxVideoBytes    int64 = 4 << 30
	MaxImageBytes    int64 = 20 << 20
	MaxDocumentBytes int64 = 100 << 20
)

// Messages staff read when a file is refused.
const (
	MsgNoFilename     = "Informe o nome do arquivo."
	MsgBadFilename    = "O nome do arquivo é inválido: use até 255 caracteres, sem caracteres de controle."
	MsgBadExtension   = "Formato não aceito. Envie vídeos (mp4, mov, webm ou mkv), imagens (jpg, png, webp ou gif) ou PDF."
	MsgNoLength       = "Informe o tamanho do arquivo antes de enviá-lo."
	MsgEmpty          = "O arquivo está vazio."
	MsgVideoTooLarge  = "O vídeo passa do limite de 4 GB."
	MsgImageTooLarge  = "A imagem passa do limite de 20 MB."
	MsgPDFTooLarge    = "O PDF passa do limite de 100 MB."
	MsgNotVideo       = "O arquivo não é um vídeo válido (mp4, mov, webm ou mkv)."
	MsgNotImage       = "O arquivo não é uma imagem válida (jpg, png, webp ou gif)."
	MsgNotPDF         = "O arquivo não é um PDF válido."
	msgDeclaredFormat = "O tipo informado (%s) não corresponde à extensão do arquivo."
)

// kindOfExtension maps the accepted file name extensions to their kind.
var kindOfExtension = map[string]Kind{
	"mp4": KindVideo, "mov": KindVideo, "webm": KindVideo, "mkv": KindVideo,
	"jpg": KindImage, "jpeg": KindImage, "png": KindImage, "webp": KindImage, "gif": KindImage,
	"pdf": KindDocument,
}

func (k Kind) maxBytes() int64 {
	switch k {
	case KindVideo:
		return MaxVideoBytes
	case KindImage:
		return MaxImageBytes
	}
	return MaxDocumentBytes
}

func (k Kind) tooLarge() string {
	switch k {
	case KindVideo:
		return MsgVideoTooLarge
	case KindImage:
		return MsgImageTooLarge
	}
	return MsgPDFTooLarge
}

// notThisKind is the reason an upload whose bytes are not of its kind
// ends in erro.
func (k Kind) notThisKind() string {
	switch k {
	case KindVideo:
		return MsgNotVideo
	case KindImage:
		return MsgNotImage
	}
	return MsgNotPDF
}

// CheckDeclared validates what a client declares when it creates an upload:
// the file name's extension decides the kind, the browser's MIME type (when
// it sent a specific one) must agree with it, and the size must be within
// the kind's limit. A refusal is a *core.Error (EINVALID or ETOOLARGE) with
// a pt-BR message.
func CheckDeclared(filename, filetype string, size int64) (Kind, error) {
	name := strings.TrimSpace(filename)
	if name == "" {
		return "", core.Errorf(core.EINVALID, MsgNoFilename)
	}
	if len(name) > 255 || httpx.TextProblem(name) != "" || strings.ContainsAny(name, "\r\n") {
		return "", core.Errorf(core.EINVALID, MsgBadFilename)
	}
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
	kind, ok := kindOfExtension[ext]
	if !ok {
		return "", core.Errorf(core.EINVALID, MsgBadExtension)
	}
	if ft := strings.ToLower(strings.TrimSpace(filetype)); ft != "" && ft != "application/octet-stream" {
		want := "video/"
		switch kind {
		case KindImage:
			want = "image/"
		case KindDocument:
			want = "application/pdf"
		}
		if !strings.HasPrefix(ft, want) {
			return "", core.Errorf(core.EINVALID, msgDeclaredFormat, filetype)
		}
	}
	if size <= 0 {
		return "", core.Errorf(core.EINVALID, MsgEmpty)
	}
	if size > kind.maxBytes() {
		return "", core.Errorf(core.ETOOLARGE, "%s", kind.tooLarge())
	}
	return kind, nil
}

// Format is a file type recognised from its first bytes.
type Format struct {
	Kind Kind
	Ext  string // the extension the stored original gets
	MIME string
}

// SniffLen is how many leading bytes Sniff needs at most.
const SniffLen = 4096

// videoBrands are the ISO-BMFF major brands of the mp4 and mov videos
// cameras, phones and editors write. Any other brand is refused: the same
// container also holds still images and audio, and a text file (a DASH or
// HLS manifest) may imitate an ftyp box in its first bytes.
var videoBrands = map[string]bool{
	"isom": true, "iso2": true, "iso3": true, "iso4": true, "iso5": true, "iso6": true,
	"mp41": true, "mp42": true, "avc1": true, "M4V ": true, "M4VH": true, "M4VP": true,
	"mmp4": true, "MSNV": true, "NDAS": true, "XAVC": true, "3gp4": true, "3gp5": true, "3gp6": true,
	"3g2a": true, "qt  ": true,
}

// ftypBox reports whether head starts with a plausible ftyp box: a size
// that covers the major brand, the minor version and whole compatible
// brands, within the sniffed bytes, and a known video brand.
func ftypBox(head []byte) (brand string, ok bool) {
	if len(head) < 16 || string(head[4:8]) != "ftyp" {
		return "", false
	}
	size := binary.BigEndian.Uint32(head[:4])
	if size < 16 || size > 256 || (size-16)%4 != 0 {
		return "", false
	}
	brand = string(head[8:12])
	return brand, videoBrands[brand]
}

// Sniff recognises the accepted formats from a file's first bytes (up to
// SniffLen): mp4 and mov (an ISO-BMFF "ftyp" box), webm and mkv (EBML),
// jpeg, png, webp, gif and PDF. It never trusts the name.
func Sniff(head []byte) (Format, bool) {
	switch {
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		brand, ok := ftypBox(head)
		if !ok {
			return Format{}, false
		}
		if brand == "qt  " {
			return Format{KindVideo, "mov", "video/quicktime"}, true
		}
		return Format{KindVideo, "mp4", "video/mp4"}, true
	case bytes.HasPrefix(head, []byte{0x1A, 0x45, 0xDF, 0xA3}):
		// The EBML header names its DocType near the start: "webm" or
		// "matroska".
		if bytes.Contains(head[:min(len(head), 64)], []byte("webm")) {
			return Format{KindVideo, "webm", "video/webm"}, true
		}
		if bytes.Contains(head[:min(len(head), 64)], []byte("matroska")) {
			return Format{KindVideo, "mkv", "video/x-matroska"}, true
		}
		return Format{}, false
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return Format{KindImage, "jpg", "image/jpeg"}, true
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return Format{KindImage, "png", "image/png"}, true
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return Format{KindImage, "webp", "image/webp"}, true
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return Format{KindImage, "gif", "image/gif"}, true
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return Format{KindDocument, "pdf", "application/pdf"}, true
	}
	return Format{}, false
}

// checkBytes sniffs head and says whether it is of kind; the reason is
// the pt-BR message an asset in erro keeps.
func checkBytes(kind Kind, head []byte) (Format, error) {
	f, ok := Sniff(head)
	if !ok || f.Kind != kind {
		return Format{}, fmt.Errorf("%s", kind.notThisKind())
	}
	return f, nil
}
