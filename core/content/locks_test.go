package content_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

func TestEditLockHeartbeatExpiryAndTakeOver(t *testing.T) {
	f := newFixture(t)
	it := f.create(t, newsInput("Bem-estar animal"))
	ana, bia := f.user, newUser(t, f.pool)

	a, err := f.store.AcquireLock(f.ctx, it.ID, ana)
	if err != nil || !a.Mine || a.Token == "" || !a.ExpiresAt.Equal(f.now().Add(content.LockTTL)) {
		t.Fatalf("ana acquires: %+v %v", a, err)
	}
	again, err := f.store.AcquireLock(f.ctx, it.ID, ana) // a second tab
	if err != nil || !again.Mine || again.Token != a.Token {
		t.Fatalf("ana's second tab: %+v %v", again, err)
	}
	b, err := f.store.AcquireLock(f.ctx, it.ID, bia)
	if err != nil || b.Mine || b.Token != "" || b.HolderID != ana {
		t.Fatalf("bia sees ana's lock: %+v %v", b, err)
	}

	// Heartbeats keep it; 5 minutes of silence free it.
	f.advance(4 * time.Minute)
	if _, err := f.store.HeartbeatLock(f.ctx, it.ID, a.Token); err != nil {
		t.Fatal(err)
	}
	f.advance(4*time.Minute + 59*time.Second)
	if b, _ = f.store.AcquireLock(f.ctx, it.ID, bia); b.Mine {
		t.Fatal("bia took a lock 4m59s after ana's last heartbeat")
	}
	f.advance(time.Second)
	if b, err = f.store.AcquireLock(f.ctx, it.ID, bia); err != nil || !b.Mine || b.Token == a.Token {
		t.Fatalf("bia after expiry: %+v %v", b, err)
	}
	if _, err := f.store.HeartbeatLock(f.ctx, it.ID, a.Token); core.ErrorCode(err) != core.ECONFLICT || core.ErrorMessage(err) != content.MsgLockTakenOver {
		t.Fatalf("ana's heartbeat after losing the lock: %v", err)
	}
	anaActor := content.Actor{UserID: ana, Channel: content.ChannelBackoffice, LockToken: a.Token}
	if _, err := f.store.Update(f.ctx, anaActor, it.ID, it.Version, newsInput("Versão da Ana")); core.ErrorCode(err) != core.ECONFLICT ||
		core.ErrorMessage(err) != content.MsgSaveTakenOver {
		t.Fatalf("ana's stale save: %v", err)
	}
	biaActor := content.Actor{UserID: bia, Channel: content.ChannelBackoffice, LockToken: b.Token}
	if it, err = f.store.Update(f.ctx, biaActor, it.ID, it.Version, newsInput("Versão da Bia")); err != nil {
		t.Fatal(err)
	}

	// Take-over: ana takes it back at once; bia's next save is refused.
	a, err = f.store.TakeOverLock(f.ctx, it.ID, ana)
	if err != nil || !a.Mine || a.Token == b.Token {
		t.Fatalf("take-over: %+v %v", a, err)
	}
	if _, err := f.store.Update(f.ctx, biaActor, it.ID, it.Version, newsInput("Outra da Bia")); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("bia's save after the take-over: %v", err)
	}
	if got, _ := f.store.Get(f.ctx, it.ID); got.Title != "Versão da Bia" {
		t.Fatalf("a refused save changed the item: %q", got.Title)
	}
	// Releasing with a stale token does nothing; with the right one frees it.
	if err := f.store.ReleaseLock(f.ctx, it.ID, b.Token); err != nil {
		t.Fatal(err)
	}
	if b, _ = f.store.AcquireLock(f.ctx, it.ID, bia); b.Mine {
		t.Fatal("a stale release freed the lock")
	}
	if err := f.store.ReleaseLock(f.ctx, it.ID, a.Token); err != nil {
		t.Fatal(err)
	}
	if b, _ = f.store.AcquireLock(f.ctx, it.ID, bia); !b.Mine {
		t.Fatal("released lock not free")
	}
	if _, err := f.store.AcquireLock(f.ctx, "6f1c8f0e-9a55-4c1e-8a43-5b0f4c4f4a11", bia); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("lock on a missing item: %v", err)
	}
}

func TestConcurrentLockRequestsHaveOneWinner(t *testing.T) {
	f := newFixture(t)
	it := f.create(t, newsInput("Disputado"))
	users := make([]string, 10)
	for i := range users {
		users[i] = newUser(t, f.pool)
	}
	var mine atomic.Int32
	var wg sync.WaitGroup
	for _, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := f.store.AcquireLock(f.ctx, it.ID, u)
			if err != nil {
				t.Error(err)
			} else if l.Mine {
				mine.Add(1)
			}
		}()
	}
	wg.Wait()
	if mine.Load() != 1 {
		t.Fatalf("%d editors got the lock", mine.Load())
	}
}
