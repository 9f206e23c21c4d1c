package config

import (
	"strings"
	"testing"
	"time"
)

func load(t *testing.T, env map[string]string) (Config, error) {
	t.Helper()
	return Load(func(k string) string { return env[k] })
}

func TestDefaults(t *testing.T) {
	c, err := load(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTPAddr != "127.0.0.1:8080" || c.PublicURL != "http://127.0.0.1:8080" {
		t.Errorf("addr %q public %q", c.HTTPAddr, c.PublicURL)
	}
	if c.Development() {
		t.Error("the binary must default to production; make run sets development")
	}
	if c.TrialDuration != 7*24*time.Hour {
		t.Errorf("trial %v", c.TrialDuration)
	}
	if c.SignupsPerIPPerMinute != 20 || c.LoginsPerIPPerMinute != 60 {
		t.Errorf("per-IP limits %d/%d", c.SignupsPerIPPerMinute, c.LoginsPerIPPerMinute)
	}
	if !strings.HasPrefix(c.DataDir, "/") {
		t.Errorf("DataDir %q must be absolute", c.DataDir)
	}
}

func TestTrialDurationOverridesTrialDays(t *testing.T) {
	c, err := load(t, map[string]string{"TRIAL_DAYS": "7", "TRIAL_DURATION": "90s"})
	if err != nil {
		t.Fatal(err)
	}
	if c.TrialDuration != 90*time.Second {
		t.Errorf("trial %v, want 90s", c.TrialDuration)
	}
}

func TestBillingGrace(t *testing.T) {
	for value, want := range map[string]time.Duration{"": 7 * 24 * time.Hour, "3d": 3 * 24 * time.Hour, "36h": 36 * time.Hour, "90s": 90 * time.Second} {
		c, err := load(t, map[string]string{"BILLING_GRACE": value})
		if err != nil || c.BillingGrace != want {
			t.Errorf("BILLING_GRACE=%q: %v %v, want %v", value, c.BillingGrace, err, want)
		}
	}
	for _, bad := range []string{"0d", "-1h", "sete", "d"} {
		if _, err := load(t, map[string]string{"BILLING_GRACE": bad}); err == nil || !strings.Contains(err.Error(), "BILLING_GRACE") {
			t.Errorf("BILLING_GRACE=%q: err %v", bad, err)
		}
	}
}

func TestRejectsBadValues(t *testing.T) {
	for key, value := range map[string]string{
		"TRIAL_DAYS":                "sete",
		"RATE_LIMIT_SIGNUPS_PER_IP": "0",
		"RATE_LIMIT_LOGINS_PER_IP":  "-3",
		"LOG_LEVEL":                 "verbose",
		"PLUGIN_CALL_TIMEOUT":       "10",
		"TRIAL_DURATION":            "0s",
	} {
		if _, err := load(t, map[string]string{key: value}); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s=%q: err %v, want one naming %s", key, value, err, key)
		}
	}
}

func TestPluginDailyVetCoinsBudget(t *testing.T) {
	c, err := load(t, nil)
	if err != nil || c.PluginDailyVetCoins != 500 {
		t.Fatalf("default budget %d, %v", c.PluginDailyVetCoins, err)
	}
	if c, err := load(t, map[string]string{"PLUGIN_DAILY_VETCOINS_BUDGET": "50"}); err != nil || c.PluginDailyVetCoins != 50 {
		t.Fatalf("budget %d, %v", c.PluginDailyVetCoins, err)
	}
	for _, bad := range []string{"0", "-1", "muito"} {
		if _, err := load(t, map[string]string{"PLUGIN_DAILY_VETCOINS_BUDGET": bad}); err == nil || !strings.Contains(err.Error(), "PLUGIN_DAILY_VETCOINS_BUDGET") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
