package profiles

// Specialty is one of the fixed veterinary specialties a profile may
// list. The database enforces the same list (migrations/00020).
type Specialty struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Specialties is the complete list, in the order the web app shows it.
var Specialties = []Specialty{
	{"clinica_geral", "Clínica Geral"},
	{"cirurgia", "Cirurgia"},
	{"reproducao", "Reprodução"},
	{"dermatologia", "Dermatologia"},
	{"cardiologia", "Cardiologia"},
	{"ortopedia", "Ortopedia"},
	{"oftalmologia", "Oftalmologia"},
	{"neurologia", "Neurologia"},
	{"oncologia", "Oncologia"},
	{"medicina_preventiva", "Medicina Preventiva"},
	{"emergencias", "Emergências"},
	{"animais_silvestres", "Animais Silvestres"},
}

func isSpecialty(v string) bool {
	for _, s := range Specialties {
		if s.Value == v {
			return true
		}
	}
	return false
}
