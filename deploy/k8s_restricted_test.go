package deploy

import (
	"testing"

	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// TestRestricted checks the three Jobs' pods against the Pod Security
// Standards "restricted" profile with the admission controller's own
// checks (k8s.io/pod-security-admission, the version of k8s.io/api), as a
// namespace labelled pod-security.kubernetes.io/enforce=restricted would
// admit them; and that the checks refuse a pod without a seccomp profile,
// so that the test can fail.
func TestRestricted(t *testing.T) {
	eval, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	restricted := api.LevelVersion{Level: api.LevelRestricted, Version: api.LatestVersion()}
	for _, path := range []string{"k8s/count-job.yaml", "k8s/merge-job.yaml", "k8s/confirm-job.yaml"} {
		job := readJob(t, path)
		pod := job.Spec.Template
		for _, r := range eval.EvaluatePod(restricted, &pod.ObjectMeta, &pod.Spec) {
			if !r.Allowed {
				t.Errorf("%s: not admitted under restricted: %s: %s", path, r.ForbiddenReason, r.ForbiddenDetail)
			}
		}
		pod.Spec.SecurityContext.SeccompProfile = nil
		allowed := true
		for _, r := range eval.EvaluatePod(restricted, &pod.ObjectMeta, &pod.Spec) {
			allowed = allowed && r.Allowed
		}
		if allowed {
			t.Errorf("%s without its seccomp profile: admitted under restricted", path)
		}
	}
}
