package main

import (
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk/offline/offlinetest"
)

// workedExamples are the worked examples of this package's tests, valid and
// refused: each must compute offline exactly as on the server.
var workedExamples = []offlinetest.Example{
	{Route: "preco", Body: `{"custos_fixos":16000,"horas_mes":160,"duracao":30,"materiais":10,"impostos":6,"taxa_cartao":4,"margem":30}`},
	{Route: "preco", Body: `{"custos_fixos":7500,"horas_mes":150,"duracao":45,"materiais":37.5,"impostos":8,"taxa_cartao":3.5,"margem":25}`},
	{Route: "preco", Body: `{"custos_fixos":"10.000","horas_mes":120,"duracao":40,"materiais":"R$ 12,50","impostos":"11,2","taxa_cartao":4,"margem":30}`},
	{Route: "preco", Body: `{"custos_fixos":0,"horas_mes":100,"duracao":30,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":1000,"horas_mes":0,"duracao":30,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":1000,"horas_mes":745,"duracao":30,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":-1,"horas_mes":100,"duracao":30,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":"R$ 10.000.000,01","horas_mes":100,"duracao":30,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":1000,"horas_mes":100,"duracao":1441,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":1000,"horas_mes":100,"duracao":30,"materiais":"1.000.001","margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":"abc","horas_mes":100,"duracao":30,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":1000,"horas_mes":100,"duracao":30,"impostos":30,"taxa_cartao":20,"margem":50}`},
	{Route: "preco", Body: `{"horas_mes":100,"duracao":30,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":1e308,"horas_mes":1,"duracao":1e308,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":1e6,"horas_mes":1,"duracao":60,"materiais":1.79e308,"margem":20}`},
	{Route: "preco", Body: `{"custos_fixos":1e7,"horas_mes":1,"duracao":1440,"impostos":60,"taxa_cartao":20,"margem":19.9999}`},
	{Route: "preco", Body: `{"custos_fixos":1e7,"horas_mes":1,"duracao":1440,"impostos":60,"taxa_cartao":20,"margem":19.99999999999}`},
	{Route: "preco", Body: `not json`},
}

// The offline build (offline_js.go, GOOS=js GOARCH=wasm, run under Node)
// answers every worked example byte for byte as the server's handler.
func TestOfflineBuildAnswersLikeTheServer(t *testing.T) {
	offlinetest.Compare(t, Manifest.ID, Handler(), workedExamples)
}
