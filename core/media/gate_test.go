package media

import "testing"

func TestUploadGateKeepsSweepAndChunksApart(t *testing.T) {
	g := newUploadGate()
	first, second := g.enter("a"), g.enter("a")
	if !first || !second {
		t.Fatal("two PATCHes on one upload were turned away")
	}
	if g.trySweep("a") {
		t.Fatal("the sweep took an upload receiving chunks")
	}
	g.leave("a")
	if g.trySweep("a") {
		t.Fatal("the sweep took an upload while a second PATCH still ran")
	}
	g.leave("a")
	if !g.trySweep("a") {
		t.Fatal("the sweep could not take an idle upload")
	}
	if g.enter("a") {
		t.Fatal("a PATCH entered an upload being swept")
	}
	if g.trySweep("a") {
		t.Fatal("two sweeps held one upload")
	}
	if !g.enter("b") {
		t.Fatal("another upload was turned away")
	}
	g.doneSweep("a")
	if !g.enter("a") {
		t.Fatal("a PATCH was turned away after the sweep let go")
	}
}
