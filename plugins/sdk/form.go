package sdk

// Form describes one form the web app renders with its generic renderer
// (UIKind "form"): it POSTs the values as JSON to /api/tools/<id>/<Action>
// and shows the Result that comes back.
type Form struct {
	ID          string  `json:"id"`
	Title       string  `json:"title"`
	Description string  `json:"description,omitempty"`
	Action      string  `json:"action"` // path relative to the plugin, e.g. "dose"
	Submit      string  `json:"submit,omitempty"`
	Fields      []Field `json:"fields"`
}

// Field types the renderer knows.
const (
	FieldNumber  = "number"
	FieldSelect  = "select"
	FieldText    = "text"
	FieldBoolean = "boolean"
	FieldDate    = "date"
)

// Field is one input. Number fields carry their Unit; Min/Max/Required,
// Options and Type are checked in the browser (pt-BR messages) and again by
// the plugin with ReadForm.
type Field struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	// Noun names the field inside a sentence, with its definite article:
	// "o peso", "a dose", "os custos fixos", "as perdas contínuas". The
	// article gives the gender and number the messages agree with ("A dose
	// é obrigatória.", "As perdas contínuas não podem ser negativas.").
	// Without it messages say "o campo «Label»".
	Noun     string   `json:"noun,omitempty"`
	Type     string   `json:"type"`
	Unit     string   `json:"unit,omitempty"`
	Required bool     `json:"required,omitempty"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	Step     float64  `json:"step,omitempty"`
	Options  []Option `json:"options,omitempty"`
	Default  any      `json:"default,omitempty"`
	Help     string   `json:"help,omitempty"`
	// ShowIf hides the field unless another field has the given value.
	ShowIf *Condition `json:"show_if,omitempty"`
}

// Condition makes a field depend on another field's value.
type Condition struct {
	Field  string   `json:"field"`
	Values []string `json:"values"`
}

// Option is one choice of a select field.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Result is what a form action answers: labelled values, tables and a short
// explanation, all pt-BR.
type Result struct {
	Values      []Value `json:"values"`
	Tables      []Table `json:"tables,omitempty"`
	Explanation string  `json:"explanation,omitempty"`
	Reference   string  `json:"reference,omitempty"`
}

// Value is one labelled result. Number is the raw figure for tests and
// clients; Display is formatted for pt-BR readers.
type Value struct {
	Label   string  `json:"label"`
	Number  float64 `json:"number"`
	Unit    string  `json:"unit,omitempty"`
	Display string  `json:"display"`
}

// Table is a labelled grid of already formatted cells.
type Table struct {
	Title   string     `json:"title"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// Ptr returns a pointer to v, for Field.Min and Field.Max.
func Ptr(v float64) *float64 { return &v }
