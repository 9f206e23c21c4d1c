package content

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path"
	"strings"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/imaging"
	"github.com/vetclube/vetclube/core/storage"
)

// Uploads stores the images and files editors attach to items (the values
// of image and file fields are the storage keys it returns), in the media
// library. Images are decoded within the shared image
// limits and encoded again, so what readers download is pixels only (no EXIF
// position, no trailing payload).
type Uploads struct {
	store   storage.Store
	library Library
	images  *imaging.Decoder
}

// Library keeps a checked upload in the media library (core/media), where
// staff see it with the items that use it, and returns its storage key.
type Library interface {
	Keep(ctx context.Context, f LibraryFile) (key string, err error)
}

// LibraryFile is an upload ready to keep: images already re-encoded.
type LibraryFile struct {
	Kind          FieldKind // KindImage or KindFile
	Name          string    // the editor's file name
	ContentType   string
	Ext           string // with its dot
	Data          []byte
	Width, Height int // an image's pixels
	UploadedBy    string
}

// NewUploads returns uploads kept in the media library, whose files store
// serves.
func NewUploads(store storage.Store, library Library) *Uploads {
	return &Uploads{store: store, library: library, images: imaging.Shared()}
}

// Upload limits and the longest side an image is kept at.
const (
	MaxUploadBytes = 10 << 20
	ImageMaxSide   = 1920
)

// Messages editors read about an upload.
const (
	MsgUploadTooLarge  = "O arquivo deve ter no máximo 10 MB."
	MsgUploadMissing   = "Selecione um arquivo para enviar."
	MsgUploadRead      = "Não foi possível ler o envio do arquivo. Tente novamente."
	MsgUploadKind      = "Escolha o tipo de envio: imagem ou arquivo."
	MsgUploadFileType  = "Envie um PDF ou um documento do Office (DOCX, XLSX ou PPTX)."
	MsgUploadMultipart = "Envie o arquivo como multipart/form-data, no campo file."
)

// Upload is a stored upload.
type Upload struct {
	Key         string `json:"key"`
	URL         string `json:"url"`
	ContentType string `json:"content_type"`
	Size        int    `json:"size"`
}

func uploadError(msg string) error {
	return core.Invalid(msg, map[string]string{"file": msg})
}

// officeTypes are the document formats accepted as materials besides PDF:
// each is a zip container, told apart by its extension.
var officeTypes = map[string]string{
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

// Save checks and stores one upload of kind FieldKind image or file.
func (u *Uploads) Save(ctx context.Context, kind FieldKind, filename string, r io.Reader) (Upload, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxUploadBytes+1))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return Upload{}, uploadError(MsgUploadTooLarge)
		}
		return Upload{}, &core.Error{Code: core.EINVALID, Message: MsgUploadRead, Fields: map[string]string{"file": MsgUploadRead}, Err: err}
	}
	switch {
	case len(raw) > MaxUploadBytes:
		return Upload{}, uploadError(MsgUploadTooLarge)
	case len(raw) == 0:
		return Upload{}, uploadError(MsgUploadMissing)
	}
	var data []byte
	var contentType, ext string
	var width, height int
	switch kind {
	case KindImage:
		data, contentType, ext, width, height, err = u.image(ctx, raw)
	case KindFile:
		data, contentType, ext, err = material(filename, raw)
	default:
		return Upload{}, core.Invalid(MsgUploadKind, map[string]string{"kind": MsgUploadKind})
	}
	if err != nil {
		return Upload{}, err
	}
	f := LibraryFile{Kind: kind, Name: filename, ContentType: contentType, Ext: ext, Data: data, Width: width, Height: height}
	if p := core.PrincipalFrom(ctx); p.Authenticated() {
		f.UploadedBy = p.UserID
	}
	key, err := u.library.Keep(ctx, f)
	if err != nil {
		return Upload{}, fmt.Errorf("keep upload in the media library: %w", err)
	}
	up := Upload{Key: key, ContentType: contentType, Size: len(data)}
	// A material is not public (the media library serves documents only by
	// signed address, to readers with access): it has no URL here.
	if kind == KindImage {
		up.URL = u.store.URL(key)
	}
	return up, nil
}

func (u *Uploads) image(ctx context.Context, raw []byte) (data []byte, contentType, ext string, width, height int, err error) {
	img, _, err := u.images.Thumbnail(ctx, raw, ImageMaxSide)
	if err != nil {
		var e *core.Error
		if errors.As(err, &e) && e.Code == core.EINVALID {
			return nil, "", "", 0, 0, &core.Error{Code: e.Code, Message: e.Message, Fields: map[string]string{"file": e.Message}, Err: e.Err}
		}
		return nil, "", "", 0, 0, err
	}
	enc, err := imaging.Encode(img)
	if err != nil {
		return nil, "", "", 0, 0, err
	}
	b := img.Bounds()
	return enc.Data, enc.ContentType, enc.Ext, b.Dx(), b.Dy(), nil
}

// material accepts a PDF or an Office document, judged by its bytes (and,
// for the zip-based Office formats, its extension).
func material(filename string, raw []byte) ([]byte, string, string, error) {
	sniffed := http.DetectContentType(raw)
	if sniffed == "application/pdf" {
		return raw, "application/pdf", ".pdf", nil
	}
	ext := strings.ToLower(path.Ext(filename))
	if ct, ok := officeTypes[ext]; ok && sniffed == "application/zip" {
		return raw, ct, ext, nil
	}
	return nil, "", "", uploadError(MsgUploadFileType)
}

// HandleUpload serves POST /api/admin/content/uploads?kind=image|file:
// multipart/form-data with the file in the field "file"; 201 with its
// storage key (the field's value) and public URL.
func HandleUpload(log *slog.Logger, u *Uploads) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		kind := FieldKind(r.URL.Query().Get("kind"))
		if kind != KindImage && kind != KindFile {
			return core.Invalid(MsgUploadKind, map[string]string{"kind": MsgUploadKind})
		}
		mr, err := r.MultipartReader()
		if err != nil {
			return uploadError(MsgUploadMultipart)
		}
		for {
			part, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return uploadError(MsgUploadMissing)
			}
			if err != nil {
				var maxErr *http.MaxBytesError
				if errors.As(err, &maxErr) {
					return uploadError(MsgUploadTooLarge)
				}
				return uploadError(MsgUploadRead)
			}
			if part.FormName() != "file" {
				part.Close()
				continue
			}
			up, err := u.Save(r.Context(), kind, part.FileName(), part)
			part.Close()
			if err != nil {
				return err
			}
			return httpx.Encode(w, http.StatusCreated, up)
		}
	})
}
