package main

import (
	"math"

	"github.com/vetclube/vetclube/plugins/sdk/vetcalc"
)

// Species the calculators know: the list shared with the other veterinary
// tools (plugins/sdk/vetcalc).
const (
	Dog     = vetcalc.Dog
	Cat     = vetcalc.Cat
	Bovine  = vetcalc.Bovine
	Equine  = vetcalc.Equine
	SmallRu = vetcalc.SmallRu
	Swine   = vetcalc.Swine
	Bird    = vetcalc.Bird
	Exotic  = vetcalc.Exotic
)

// SpeciesInfo is one species with its accepted weight range (README.md).
type SpeciesInfo = vetcalc.SpeciesInfo

var species = vetcalc.Species

// MaxWeightKg is the largest weight any species accepts (the form's limit).
const MaxWeightKg = vetcalc.MaxWeightKg

func speciesInfo(value string) (SpeciesInfo, bool) { return vetcalc.Lookup(value) }

// DoseMg is the dose in mg for a patient: mg/kg × kg.
func DoseMg(doseMgPerKg, weightKg float64) float64 { return vetcalc.DoseMg(doseMgPerKg, weightKg) }

// DoseVolumeML is the volume to draw: dose (mg) ÷ concentration (mg/mL).
func DoseVolumeML(doseMg, concentrationMgPerML float64) float64 {
	return vetcalc.DoseVolumeML(doseMg, concentrationMgPerML)
}

// RER is the resting energy requirement in kcal/day: 70 × kg^0.75.
func RER(weightKg float64) float64 { return 70 * math.Pow(weightKg, 0.75) }

// LifeStage is one row of the MER factor table.
type LifeStage struct {
	Value, Label string
	Factor       float64
}

// MER factors multiply the RER (WSAVA 2011 / AAHA 2021 tables; README.md).
var merStages = map[string][]LifeStage{
	Dog: {
		{"castrado", "Adulto castrado", 1.6},
		{"inteiro", "Adulto inteiro", 1.8},
		{"inativo", "Adulto inativo / propenso à obesidade", 1.2},
		{"perda_peso", "Perda de peso", 1.0},
		{"ganho_peso", "Ganho de peso", 1.7},
		{"trabalho_leve", "Trabalho leve", 2.0},
		{"trabalho_moderado", "Trabalho moderado", 3.0},
		{"filhote_0_4", "Filhote até 4 meses", 3.0},
		{"filhote_4_12", "Filhote de 4 meses a adulto", 2.0},
		{"gestacao_inicio", "Gestação (primeiros 42 dias)", 1.8},
		{"gestacao_final", "Gestação (últimos 21 dias)", 3.0},
		{"lactacao", "Lactação (4 a 8 × RER conforme a ninhada; usado 4)", 4.0},
	},
	Cat: {
		{"castrado", "Adulto castrado", 1.2},
		{"inteiro", "Adulto inteiro", 1.4},
		{"inativo", "Adulto inativo / propenso à obesidade", 1.0},
		{"perda_peso", "Perda de peso", 0.8},
		{"ganho_peso", "Ganho de peso", 1.2},
		{"filhote", "Filhote", 2.5},
		{"gestacao", "Gestação", 1.6},
		{"lactacao", "Lactação (2 a 6 × RER conforme a ninhada; usado 2)", 2.0},
	},
}

func merStage(species, value string) (LifeStage, bool) {
	for _, s := range merStages[species] {
		if s.Value == value {
			return s, true
		}
	}
	return LifeStage{}, false
}

// MaintenanceFluidML is the daily maintenance volume (AAHA/AAFP 2013):
// dogs 132 × kg^0.75, cats 80 × kg^0.75 mL/day.
func MaintenanceFluidML(species string, weightKg float64) float64 {
	k := 132.0
	if species == Cat {
		k = 80
	}
	return k * math.Pow(weightKg, 0.75)
}

// DehydrationDeficitML is kg × % dehydration × 10 (1 kg of water ≈ 1 L).
func DehydrationDeficitML(weightKg, percent float64) float64 { return weightKg * percent * 10 }

// DropsPerMinute converts a rate in mL/h for a set of dropsPerML.
func DropsPerMinute(mlPerHour, dropsPerML float64) float64 { return mlPerHour * dropsPerML / 60 }

// BloodVolumeMLPerKg is the total blood volume used for transfusions.
func BloodVolumeMLPerKg(species string) float64 {
	if species == Cat {
		return 60
	}
	return 90
}

// TransfusionVolumeML = kg × blood volume × (desired − patient PCV) ÷ donor PCV.
func TransfusionVolumeML(species string, weightKg, patientPCV, desiredPCV, donorPCV float64) float64 {
	return weightKg * BloodVolumeMLPerKg(species) * (desiredPCV - patientPCV) / donorPCV
}

// BSA is the body surface area in m²: K × (weight in g)^(2/3) × 10⁻⁴,
// K = 10.1 for dogs and 10.0 for cats.
func BSA(species string, weightKg float64) float64 {
	k := 10.1
	if species == Cat {
		k = 10.0
	}
	return k * math.Pow(weightKg*1000, 2.0/3.0) / 10000
}

// Conversions.
const poundKg = 0.45359237

func KgToLb(kg float64) float64 { return kg / poundKg }
func LbToKg(lb float64) float64 { return lb * poundKg }
func CToF(c float64) float64    { return c*9/5 + 32 }
func FToC(f float64) float64    { return (f - 32) * 5 / 9 }

// PercentToMgPerML: a 1 % solution has 1 g per 100 mL = 10 mg/mL.
func PercentToMgPerML(p float64) float64 { return p * 10 }
func MgPerMLToPercent(m float64) float64 { return m / 10 }
