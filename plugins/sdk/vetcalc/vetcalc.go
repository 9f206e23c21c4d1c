// Package vetcalc holds what several veterinary tools share: the species
// they know (with the weight range a submission must fall in) and the dose
// formulas. It has no dependency, so it builds for the offline (wasm) tools
// too.
package vetcalc

// Species values.
const (
	Dog     = "cao"
	Cat     = "gato"
	Bovine  = "bovino"
	Equine  = "equino"
	SmallRu = "ovino_caprino"
	Swine   = "suino"
	Bird    = "ave"
	Exotic  = "exotico"
)

// SpeciesInfo is one species with the weight range a submission must fall
// in. The ranges go from a newborn (or the smallest adult of the group) to
// a heavy adult with margin; they catch typing slips (grams typed as kg, a
// 45 kg cat), they are not growth standards.
type SpeciesInfo struct {
	Value, Label string
	// Plural names the species in a sentence: "para cães".
	Plural         string
	MinKg, MaxKg   float64
	SmallAnimalFit bool // the dog/cat formulas (RER, fluids, blood volume, BSA) apply
}

// Species lists every species, in the order forms show them.
var Species = []SpeciesInfo{
	{Dog, "Cão", "cães", 0.05, 120, true},
	{Cat, "Gato", "gatos", 0.05, 20, true},
	{Bovine, "Bovino", "bovinos", 10, 1500, false},
	{Equine, "Equino", "equinos", 5, 1200, false},
	{SmallRu, "Ovino/caprino", "ovinos e caprinos", 1, 200, false},
	{Swine, "Suíno", "suínos", 0.5, 400, false},
	{Bird, "Ave", "aves", 0.01, 150, false},
	{Exotic, "Exótico", "animais exóticos", 0.01, 500, false},
}

// MaxWeightKg is the largest weight any species accepts.
const MaxWeightKg = 1500

// Lookup returns the species whose value is value.
func Lookup(value string) (SpeciesInfo, bool) {
	for _, s := range Species {
		if s.Value == value {
			return s, true
		}
	}
	return SpeciesInfo{}, false
}

// DoseMg is the dose in mg for a patient: mg/kg × kg.
func DoseMg(doseMgPerKg, weightKg float64) float64 { return doseMgPerKg * weightKg }

// DoseVolumeML is the volume to draw: dose (mg) ÷ concentration (mg/mL).
func DoseVolumeML(doseMg, concentrationMgPerML float64) float64 {
	return doseMg / concentrationMgPerML
}
