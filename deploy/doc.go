// Package deploy holds no code: it is the home of the files that run a
// distributed count of queens under a batch engine, and of the tests that
// check them.
//
//	slurm/count.sbatch       one shard per task of a Slurm job array (requeue-able, checkpointed;
//	                         requeues itself on queens' exit status 75, never on 2)
//	slurm/merge.sbatch       queens merge of the array's results, with its record
//	slurm/submit.sh          submits the array into parts-nN-ENGINE (refusing another count's
//	                         directory), then the merge with --dependency=afterany, both sized
//	sizing.sh                what the tasks, pods and merges ask for: memory, CPUs, time
//	slurm/local-cluster.sh   up|status|down: a single-node Slurm for trying them (Debian 12, root)
//	k8s/Dockerfile           a static queens on distroless, non-root
//	k8s/results-claim.yaml   the volume of one count (queens-nN-ENGINE): its lines only
//	k8s/count-job.yaml       an Indexed Job, one pod per shard (Job 0 of a count); exit
//	                         status 2 fails one shard, 75 is retried, neither the Job
//	k8s/merge-job.yaml       the Job that merges their results, recounts and writes a record
//	k8s/confirm-job.yaml     the Job that confirms a count's two records (merge --confirm)
//	k8s/jobs.sh              N K C [ENGINE]: a count's volume, its Jobs, C shards a Job, and
//	                         its merge, each sized; confirm N KC KJ: the confirmation
//
// testdata/fakeslurm holds an sbatch, squeue and scontrol that run the
// Slurm scripts on any machine, each job at once.
//
// The tests build queens with the go build command of k8s/Dockerfile, run
// the arguments of the Kubernetes jobs as written (for a small n) and merge
// their results, and decode the manifests strictly into batch/v1 Jobs. With a
// Slurm cluster answering (or QUEENS_SLURM=1, which brings the local one up)
// they submit count.sbatch as a job array, merge, requeue a task in the
// middle of its count and check that it resumes from its checkpoint.
//
// deploy is a module of its own (deploy/go.mod), so that k8s.io/api and
// sigs.k8s.io/yaml, which only these tests use, are not dependencies of
// queens: run its tests from this directory, go test ./... (the root's
// go test ./... leaves it out). It uses the queens module beside it
// (a replace directive), never a published one.
package deploy
