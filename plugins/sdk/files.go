package sdk

import "errors"

// ErrNotFound is what Host.File answers for a file that is not the request
// member's upload to this plugin (another member's, another plugin's, a
// deleted one or an unknown id): the same answer for all of them.
var ErrNotFound = errors.New("sdk: not found")

// File kinds a member may upload to a tool.
const (
	FileImage = "image"
	FilePDF   = "pdf"
)

// File is a member's upload to this plugin (POST /api/tools/<id>/files):
// an image re-encoded by the core (no EXIF or other metadata) or a PDF.
type File struct {
	ID          string
	Kind        string // FileImage or FilePDF
	ContentType string // image/jpeg, image/png, image/webp or application/pdf
	Name        string // the member's file name, cleaned by the core
	Size        int64
	Data        []byte
}
