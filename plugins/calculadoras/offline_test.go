package main

import (
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk/offline/offlinetest"
)

// workedExamples are the worked examples of this package's tests (and the
// README's), valid and refused: each must compute offline exactly as on the
// server.
var workedExamples = []offlinetest.Example{
	{Route: "dose", Body: `{"especie":"cao","peso":10,"dose_mg_kg":5,"concentracao":50}`},
	{Route: "dose", Body: `{"especie":"gato","peso":"4,5","dose_mg_kg":0.1,"concentracao":1.5}`},
	{Route: "dose", Body: `{"especie":"cao","peso":-2,"dose_mg_kg":5,"concentracao":0}`},
	{Route: "dose", Body: `{"dose_mg_kg":5,"concentracao":10}`},
	{Route: "dose", Body: `{"especie":"exotico","peso":"0,05","dose_mg_kg":0.1,"concentracao":1.5}`},
	{Route: "dose", Body: `{"especie":"bovino","peso":450,"dose_mg_kg":20,"concentracao":200}`},
	{Route: "dose", Body: `{"especie":"bovino","peso":1500,"dose_mg_kg":1,"concentracao":10}`},
	{Route: "dose", Body: `{"especie":"gato","peso":20,"dose_mg_kg":1,"concentracao":10}`},
	{Route: "dose", Body: `{"especie":"cao","peso":10,"unidade_dose":"mcg_kg","dose_mcg_kg":5,"concentracao":0.5}`},
	{Route: "dose", Body: `{"especie":"cao","peso":10,"dose_mg_kg":2,"unidade_concentracao":"pct","concentracao_pct":2}`},
	{Route: "dose", Body: `{"especie":"cao","peso":10,"dose_mg_kg":2,"unidade_concentracao":"pct","concentracao_pct":150}`},
	{Route: "dose", Body: `{"especie":"cao","peso":100,"dose_mg_kg":1e308,"concentracao":50}`},
	{Route: "dose", Body: `{"especie":"cao","peso":100,"dose_mg_kg":1e303,"concentracao":0.0001}`},
	{Route: "dose", Body: `{"especie":"cao","peso":10,"dose_mg_kg":1000,"concentracao":1e-320}`},
	{Route: "dose", Body: `not json`},
	{Route: "energia", Body: `{"especie":"cao","peso":5,"fase_cao":"castrado"}`},
	{Route: "energia", Body: `{"especie":"cao","peso":10,"fase_cao":"castrado"}`},
	{Route: "energia", Body: `{"especie":"cao","peso":30,"fase_cao":"castrado"}`},
	{Route: "energia", Body: `{"especie":"gato","peso":4,"fase_gato":"castrado"}`},
	{Route: "energia", Body: `{"especie":"gato","peso":4,"fase_gato":"x"}`},
	{Route: "energia", Body: `{"especie":"equino","peso":500}`},
	{Route: "fluidoterapia", Body: `{"especie":"cao","peso":10,"desidratacao":8,"perdas":0}`},
	{Route: "fluidoterapia", Body: `{"especie":"gato","peso":4}`},
	{Route: "fluidoterapia", Body: `{"especie":"cao","peso":10,"desidratacao":-1}`},
	{Route: "fluidoterapia", Body: `{"especie":"cao","peso":1e308,"desidratacao":10}`},
	{Route: "fluidoterapia", Body: `{"especie":"bovino","peso":450,"desidratacao":5}`},
	{Route: "transfusao", Body: `{"especie":"cao","peso":20,"ht_paciente":15,"ht_desejado":25,"ht_doador":45}`},
	{Route: "transfusao", Body: `{"especie":"gato","peso":4,"ht_paciente":12,"ht_desejado":20,"ht_doador":35}`},
	{Route: "transfusao", Body: `{"especie":"cao","peso":20,"ht_paciente":30,"ht_desejado":25,"ht_doador":45}`},
	{Route: "transfusao", Body: `{"especie":"equino","peso":500,"ht_paciente":12,"ht_desejado":20,"ht_doador":40}`},
	{Route: "superficie-corporal", Body: `{"especie":"cao","peso":10}`},
	{Route: "superficie-corporal", Body: `{"especie":"cao","peso":1}`},
	{Route: "superficie-corporal", Body: `{"especie":"gato","peso":2}`},
	{Route: "superficie-corporal", Body: `{"especie":"cao","peso":10,"dose_m2":100}`},
	{Route: "superficie-corporal", Body: `{"especie":"cao","peso":100,"dose_m2":1e308}`},
	{Route: "superficie-corporal", Body: `{"especie":"suino","peso":100}`},
	{Route: "conversao", Body: `{"tipo":"kg_lb","valor":10}`},
	{Route: "conversao", Body: `{"tipo":"lb_kg","valor":22.046}`},
	{Route: "conversao", Body: `{"tipo":"c_f","valor":39}`},
	{Route: "conversao", Body: `{"tipo":"f_c","valor":"100,4"}`},
	{Route: "conversao", Body: `{"tipo":"pct_mgml","valor":2}`},
	{Route: "conversao", Body: `{"tipo":"mgml_pct","valor":"0,5"}`},
	{Route: "conversao", Body: `{"tipo":"mg_mcg","valor":0.25}`},
	{Route: "conversao", Body: `{"tipo":"mcg_mg","valor":"0,5"}`},
	{Route: "conversao", Body: `{"tipo":"lb_kg","valor":"0,01"}`},
	{Route: "conversao", Body: `{"tipo":"c_f","valor":"-273,15"}`},
	{Route: "conversao", Body: `{"tipo":"c_f","valor":-300}`},
	{Route: "conversao", Body: `{"tipo":"f_c","valor":-500}`},
	{Route: "conversao", Body: `{"tipo":"kg_lb","valor":-1}`},
	{Route: "conversao", Body: `{"tipo":"mg_mcg","valor":1e306}`},
	{Route: "conversao", Body: `{"tipo":"c_f","valor":1e308}`},
	{Route: "nao-existe", Body: `{}`},
}

// The offline build (offline_js.go, GOOS=js GOARCH=wasm, run under Node)
// answers every worked example byte for byte as the server's handler.
func TestOfflineBuildAnswersLikeTheServer(t *testing.T) {
	offlinetest.Compare(t, Manifest.ID, Handler(), workedExamples)
}
