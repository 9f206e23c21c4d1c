package connections_test

import (
	"net/http"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
)

type result struct {
	ID     *string `json:"id"`
	Status string  `json:"status"`
}

// The API end to end: a request, the pair's status both ways, who may
// answer it, the lists, blocks and the errors in pt-BR.
func TestHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	ana, anaID := srv.SignedIn(t, "ana@example.com")
	bia, biaID := srv.SignedIn(t, "bia@example.com")
	caio, _ := srv.SignedIn(t, "caio@example.com")

	if res := srv.Client(t).Do("GET", "/api/connections", nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("visitor: %d", res.Status)
	}
	res := ana.Do("POST", "/api/connections", map[string]string{})
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "Informe o usuário." {
		t.Fatalf("no user_id: %d %s", res.Status, res.Body)
	}
	res = ana.Do("POST", "/api/connections", map[string]string{"user_id": anaID})
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "Você não pode se conectar consigo mesmo" {
		t.Fatalf("self: %d %s", res.Status, res.Body)
	}

	res = ana.Do("POST", "/api/connections", map[string]string{"user_id": biaID})
	var sent result
	res.JSON(t, &sent)
	if res.Status != http.StatusOK || sent.Status != "pending" || sent.ID == nil {
		t.Fatalf("request: %d %s", res.Status, res.Body)
	}
	id := *sent.ID

	var st result
	bia.Do("GET", "/api/connections/status/"+anaID, nil).JSON(t, &st)
	if st.Status != "pending_received" || *st.ID != id {
		t.Fatalf("bia sees %+v", st)
	}
	ana.Do("GET", "/api/connections/status/"+biaID, nil).JSON(t, &st)
	if st.Status != "pending_sent" {
		t.Fatalf("ana sees %+v", st)
	}
	ana.Do("GET", "/api/connections/status/not-a-uuid", nil).JSON(t, &st)
	if st.Status != "none" || st.ID != nil {
		t.Fatalf("bad id status %+v", st)
	}

	// Only the receiver answers: the requester is refused, a stranger is
	// told there is no such request.
	if res := ana.Do("POST", "/api/connections/"+id+"/accept", nil); res.Status != http.StatusForbidden ||
		res.ErrorMessage() != "Apenas quem recebeu a solicitação pode aceitá-la" {
		t.Fatalf("requester accepts: %d %s", res.Status, res.Body)
	}
	for _, path := range []string{"/accept", "/reject"} {
		if res := caio.Do("POST", "/api/connections/"+id+path, nil); res.Status != http.StatusNotFound ||
			res.ErrorMessage() != "Solicitação de conexão não encontrada" {
			t.Fatalf("stranger %s: %d %s", path, res.Status, res.Body)
		}
	}
	if res := caio.Do("DELETE", "/api/connections/"+id, nil); res.Status != http.StatusNotFound {
		t.Fatalf("stranger delete: %d", res.Status)
	}

	var lists struct {
		Received []struct {
			ID   string `json:"id"`
			User struct {
				ID        string `json:"id"`
				FirstName string `json:"first_name"`
			} `json:"user"`
		} `json:"received"`
		Sent        []any `json:"sent"`
		Connections []struct {
			ID          string `json:"id"`
			ConnectedAt string `json:"connected_at"`
		} `json:"connections"`
	}
	bia.Do("GET", "/api/connections", nil).JSON(t, &lists)
	if len(lists.Received) != 1 || lists.Received[0].ID != id || lists.Received[0].User.ID != anaID || lists.Received[0].User.FirstName != "ana" {
		t.Fatalf("bia's lists %+v", lists)
	}

	res = bia.Do("POST", "/api/connections/"+id+"/accept", nil)
	var acc result
	res.JSON(t, &acc)
	if res.Status != http.StatusOK || acc.Status != "connected" {
		t.Fatalf("accept: %d %s", res.Status, res.Body)
	}
	ana.Do("GET", "/api/connections?q=BIA", nil).JSON(t, &lists)
	if len(lists.Connections) != 1 || lists.Connections[0].ID != id || lists.Connections[0].ConnectedAt == "" {
		t.Fatalf("ana's connections %+v", lists)
	}
	var profile struct {
		ConnectionsCount int `json:"connections_count"`
	}
	srv.Client(t).Do("GET", "/api/profiles/"+anaID, nil).JSON(t, &profile)
	if profile.ConnectionsCount != 1 {
		t.Fatalf("public count %d", profile.ConnectionsCount)
	}
	var mutual struct {
		Mutual []any `json:"mutual"`
		Count  int   `json:"count"`
	}
	if res := caio.Do("GET", "/api/connections/mutual/"+anaID, nil); res.Status != http.StatusOK {
		t.Fatalf("mutual: %d", res.Status)
	} else if res.JSON(t, &mutual); mutual.Count != 0 || mutual.Mutual == nil {
		t.Fatalf("mutual %s", res.Body)
	}
	var sugg struct {
		Suggestions []struct {
			User struct{ ID string } `json:"user"`
		} `json:"suggestions"`
	}
	caio.Do("GET", "/api/connections/suggestions", nil).JSON(t, &sugg)
	if len(sugg.Suggestions) != 2 {
		t.Fatalf("caio's suggestions %+v", sugg)
	}

	// Removal by either party, then a block refuses new requests both ways.
	if res := bia.Do("DELETE", "/api/connections/"+id, nil); res.Status != http.StatusOK {
		t.Fatalf("remove: %d %s", res.Status, res.Body)
	}
	if res := bia.Do("POST", "/api/blocks", map[string]string{"user_id": anaID}); res.Status != http.StatusOK {
		t.Fatalf("block: %d %s", res.Status, res.Body)
	}
	for _, c := range []struct {
		client *apptest.Client
		to     string
	}{{ana, biaID}, {bia, anaID}} {
		res := c.client.Do("POST", "/api/connections", map[string]string{"user_id": c.to})
		if res.Status != http.StatusForbidden || res.ErrorMessage() != "Não é possível se conectar com este usuário" {
			t.Fatalf("request while blocked: %d %s", res.Status, res.Body)
		}
	}
	ana.Do("GET", "/api/connections/status/"+biaID, nil).JSON(t, &st)
	if st.Status != "blocked" {
		t.Fatalf("status while blocked %+v", st)
	}
	if res := bia.Do("DELETE", "/api/blocks/"+anaID, nil); res.Status != http.StatusOK {
		t.Fatalf("unblock: %d", res.Status)
	}
	if res := ana.Do("POST", "/api/connections", map[string]string{"user_id": biaID}); res.Status != http.StatusOK {
		t.Fatalf("request after unblock: %d %s", res.Status, res.Body)
	}
}
