package main

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// TypeID is the events content type; core/eventos reads its published
// snapshots (the field names below are its contract, which
// TestProjectionReadsDeclaredFields checks against event_listings_sync).
const TypeID = "eventos"

// Types of event. The PWA colours the first three (Workshop blue, Intensivo
// purple, Congresso green) and shows any other in gray.
var Types = []sdk.ContentOption{
	{Value: "Workshop", Label: "Workshop"},
	{Value: "Intensivo", Label: "Intensivo"},
	{Value: "Congresso", Label: "Congresso"},
	{Value: "Palestra", Label: "Palestra"},
	{Value: "Webinar", Label: "Webinar"},
	{Value: "Outro", Label: "Outro"},
}

// Zones are the time zones an event may be set in (Brazil's).
var Zones = []sdk.ContentOption{
	{Value: "America/Sao_Paulo", Label: "Brasília (America/Sao_Paulo)"},
	{Value: "America/Manaus", Label: "Amazonas (America/Manaus)"},
	{Value: "America/Cuiaba", Label: "Mato Grosso (America/Cuiaba)"},
	{Value: "America/Rio_Branco", Label: "Acre (America/Rio_Branco)"},
	{Value: "America/Noronha", Label: "Fernando de Noronha (America/Noronha)"},
	{Value: "America/Fortaleza", Label: "Nordeste (America/Fortaleza)"},
	{Value: "America/Belem", Label: "Pará (America/Belem)"},
}

// DefaultZone is the zone of an event that names none.
const DefaultZone = "America/Sao_Paulo"

const timePattern = `([01][0-9]|2[0-3]):[0-5][0-9]`

// EventType is the declaration the core registers.
var EventType = sdk.ContentType{
	ID: TypeID, Singular: "Evento", Plural: "Eventos", Icon: "calendar-days",
	Route: "/eventos",
	Fields: []sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(20), Max: sdk.Bound(20000), Searchable: true,
			Help: "Markdown: programação, público, o que levar."},
		{Name: "event_type", Label: "Tipo de evento", Kind: sdk.ContentSelect, Required: true, Options: Types,
			Listed: true, Filterable: true},
		{Name: "event_date", Label: "Data", Kind: sdk.ContentDate, Required: true, Listed: true, Sortable: true, Filterable: true},
		{Name: "event_time", Label: "Horário de início", Kind: sdk.ContentText, Required: true, Pattern: timePattern,
			PatternMessage: "Informe o horário no formato HH:mm (ex.: 19:30).", Listed: true, Help: "HH:mm, no fuso do evento."},
		{Name: "end_time", Label: "Horário de término", Kind: sdk.ContentText, Pattern: timePattern,
			PatternMessage: "Informe o horário no formato HH:mm (ex.: 21:00).", Listed: true,
			Help: "Opcional; sem ele, o evento dura 2 horas. Antes do início: termina no dia seguinte."},
		{Name: "time_zone", Label: "Fuso horário", Kind: sdk.ContentSelect, Options: Zones, Listed: true,
			Help: "Brasília quando vazio."},
		{Name: "online", Label: "Evento online", Kind: sdk.ContentBoolean, Listed: true},
		{Name: "location", Label: "Local", Kind: sdk.ContentText, Max: sdk.Bound(200), Listed: true,
			Help: "Endereço ou nome do local (eventos presenciais)."},
		{Name: "meeting_url", Label: "Link da transmissão", Kind: sdk.ContentURL, Max: sdk.Bound(500),
			Help: "Mostrado só aos participantes, a partir de 30 minutos antes do início."},
		{Name: "instructor", Label: "Instrutor(a)", Kind: sdk.ContentText, Max: sdk.Bound(120), Listed: true, Searchable: true},
		{Name: "price_text", Label: "Preço", Kind: sdk.ContentText, Max: sdk.Bound(60), Listed: true,
			Help: "Como aparece para o leitor (ex.: Gratuito, R$ 120,00)."},
		{Name: "max_participants", Label: "Vagas", Kind: sdk.ContentNumber, Min: sdk.Bound(1), Max: sdk.Bound(100000), Listed: true,
			Help: "Número máximo de participantes; vazio para vagas ilimitadas."},
		{Name: "icon", Label: "Ícone", Kind: sdk.ContentText, Max: sdk.Bound(8), Listed: true, Help: "Um emoji; 📅 quando vazio."},
		{Name: "cancelled", Label: "Evento cancelado", Kind: sdk.ContentBoolean,
			Help: "Ao publicar, os participantes são avisados e os lembretes cancelados."},
		{Name: "is_active", Label: "Ativo", Kind: sdk.ContentBoolean, Computed: true, Listed: true,
			Help: "Calculado: ativo enquanto não estiver cancelado."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "event_date"}, PageSize: 20},
	Workflow: sdk.WorkflowEditorial,
}

// Plugin is everything Serve needs; tests start the same value.
func Plugin() sdk.Tool {
	return sdk.Tool{
		Manifest: sdk.Manifest{
			ID: TypeID, Name: "Eventos",
			Description: "Workshops, cursos intensivos e congressos, com inscrição, lista de espera e lembretes.",
			Version:     "1.0.0", MinCoreVersion: "1.0.0",
			Kind: sdk.KindContent, Icon: "calendar-days",
			ContentTypes: []sdk.ContentType{EventType},
		},
		Content: sdk.ContentHooks{ValidateContent: Validate},
	}
}

// Messages editors read beside the fields.
const (
	MsgLocationNeeded   = "Informe o local do evento presencial."
	MsgMeetingURLNeeded = "Informe o link da transmissão do evento online."
	MsgWholeSeats       = "O número de vagas deve ser um número inteiro."
	MsgEndSameAsStart   = "O término deve ser diferente do início."
)

// Validate is the ValidateContent hook: an in-person event says where, an
// online one has its link, seats are whole, and is_active follows the
// cancelled box (an unticked "Ativo" would otherwise cancel every new
// event by default).
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	online, _ := it.Fields["online"].(bool)
	if online && strings.TrimSpace(str(it.Fields["meeting_url"])) == "" {
		errs["meeting_url"] = MsgMeetingURLNeeded
	}
	if !online && strings.TrimSpace(str(it.Fields["location"])) == "" {
		errs["location"] = MsgLocationNeeded
	}
	if n, ok := it.Fields["max_participants"].(float64); ok && n != math.Trunc(n) {
		errs["max_participants"] = MsgWholeSeats
	}
	if end := str(it.Fields["end_time"]); end != "" && end == str(it.Fields["event_time"]) {
		errs["end_time"] = MsgEndSameAsStart
	}
	cancelled, _ := it.Fields["cancelled"].(bool)
	check := sdk.ContentCheck{Computed: map[string]any{"is_active": !cancelled}}
	if len(errs) > 0 {
		check.Errors = errs
	}
	return check, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// zoneKnown is used by tests: every offered zone must load.
func zoneKnown(name string) bool {
	_, err := time.LoadLocation(name)
	return err == nil
}
