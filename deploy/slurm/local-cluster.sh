#!/bin/bash
# local-cluster.sh: a single-node Slurm on this machine, for trying the job
# array of count.sbatch and for the end-to-end test (deploy/slurm_test.go).
#
#   deploy/slurm/local-cluster.sh up       start slurmctld and slurmd (idempotent)
#   deploy/slurm/local-cluster.sh status   say whether it is up (exit status 0 if so)
#   deploy/slurm/local-cluster.sh down     stop the daemons and remove the state
#
# It is made for a throwaway machine or CI container running Debian 12 as
# root: it installs slurmctld, slurmd and slurm-client with apt-get when they
# are missing, and starts the daemons directly (no systemd). Authentication is
# auth/none and cred/none, so no munge daemon runs (Debian's packages pull
# munge in, but it is not used): anyone who can reach the ports can submit as
# anyone. Never run it on a shared host.
#
# The state (slurm.conf, spool, logs, pid files) lives in $QUEENS_SLURM_DIR,
# default /tmp/queens-slurm. The clients (sinfo, sbatch, ...) find the
# configuration through /etc/slurm/slurm.conf, which up makes a symbolic link
# to $QUEENS_SLURM_DIR/slurm.conf when no other configuration is there;
# otherwise set SLURM_CONF=$QUEENS_SLURM_DIR/slurm.conf.
#
# The node gets CPUs = nproc and RealMemory from /proc/meminfo (less 5%).
set -euo pipefail

dir=${QUEENS_SLURM_DIR:-/tmp/queens-slurm}
conf=$dir/slurm.conf
etc=/etc/slurm/slurm.conf
marker='# written by queens deploy/slurm/local-cluster.sh'
node=$(hostname -s)

die() { echo "local-cluster.sh: $*" >&2; exit 1; }

# answers: the controller answers and the node is usable (idle, mixed or allocated).
answers() {
	local state
	# Without the file sinfo waits up to 60 s for it to appear.
	[[ -s $conf ]] || return 1
	state=$(SLURM_CONF=$conf timeout 10 sinfo -h -n "$node" -o %T 2>/dev/null) || return 1
	case $state in
	idle* | mix* | alloc* | comp*) return 0 ;;
	esac
	return 1
}

alive() { # alive PIDFILE: the daemon of that pid file runs
	[[ -s $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null
}

install_packages() {
	command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null && return 0
	[[ $(id -u) == 0 ]] || die "slurmctld, slurmd or sbatch missing, and only root can install them (apt-get install slurmctld slurmd slurm-client)"
	command -v apt-get >/dev/null || die "slurmctld, slurmd or sbatch missing and no apt-get to install them"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q slurmctld slurmd slurm-client >/dev/null ||
		{ apt-get update -q >/dev/null && apt-get install -y -q slurmctld slurmd slurm-client >/dev/null; } ||
		die "apt-get install slurmctld slurmd slurm-client failed"
}

write_conf() {
	local cpus mem_kb mem
	cpus=$(nproc)
	mem_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
	[[ $cpus =~ ^[0-9]+$ && $cpus -ge 1 ]] || die "nproc gave $cpus"
	[[ $mem_kb =~ ^[0-9]+$ && $mem_kb -ge 1024 ]] || die "no MemTotal in /proc/meminfo"
	mem=$((mem_kb * 95 / 100 / 1024))
	mkdir -p "$dir/spool/ctld" "$dir/spool/d" "$dir/log"
	cat >"$conf.tmp" <<EOF
$marker
ClusterName=queens-local
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=${QUEENS_SLURMCTLD_PORT:-6817}
SlurmdPort=${QUEENS_SLURMD_PORT:-6818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
# A requeued job waits cred_expire+1 s before it may start again (default 120).
AuthInfo=cred_expire=5
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmdParameters=config_overrides
ReturnToService=2
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MinJobAge=600
# Slurm's default, set here because the test resubmits a shard above it:
# task ids run from 0 to 1000.
MaxArraySize=1001
KillWait=5
# A small test cluster: schedule at once (by default up to 3 s late, and a
# requeued job that becomes eligible waits for the next 60 s loop)
SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000,sched_interval=1
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
	mv "$conf.tmp" "$conf"
	if [[ -L $etc && $(readlink "$etc") == "$conf" ]]; then
		:
	elif [[ ! -e $etc && -w /etc/slurm ]]; then
		ln -s "$conf" "$etc"
	else
		echo "local-cluster.sh: $etc is not ours; set SLURM_CONF=$conf for the clients" >&2
	fi
}

# running: both daemons of this directory run and the node is usable.
running() {
	alive "$dir/slurmctld.pid" && alive "$dir/slurmd.pid" && answers
}

up() {
	if running; then
		echo "slurm is up: node $node"
		return 0
	fi
	install_packages
	[[ $(id -u) == 0 ]] || die "the daemons run as root here (SlurmUser=root); run up as root"
	write_conf
	if ! alive "$dir/slurmctld.pid"; then
		# -c: start clean, without the jobs of an earlier cluster in this directory.
		slurmctld -c -f "$conf" || die "slurmctld did not start; see $dir/log/slurmctld.log"
	fi
	if ! alive "$dir/slurmd.pid"; then
		slurmd -f "$conf" || die "slurmd did not start; see $dir/log/slurmd.log"
	fi
	local i
	for ((i = 0; i < 60; i++)); do
		if answers; then
			echo "slurm is up: node $node ($(SLURM_CONF=$conf sinfo -h -n "$node" -o '%c CPUs, %m MB'))"
			return 0
		fi
		# A node left down or drained by an earlier run comes back here.
		SLURM_CONF=$conf scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 || true
		sleep 0.5
	done
	tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
	die "the node did not become idle within 30 s"
}

stop() { # stop PIDFILE: TERM the daemon, wait, KILL if it lingers
	local pid i
	[[ -s $1 ]] || return 0
	pid=$(cat "$1")
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 50; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.2
	done
	kill -KILL "$pid" 2>/dev/null || true
}

down() {
	if [[ -s $conf ]]; then
		SLURM_CONF=$conf timeout 10 scancel --user=root >/dev/null 2>&1 || true
	fi
	stop "$dir/slurmd.pid"
	stop "$dir/slurmctld.pid"
	if [[ -L $etc && $(readlink "$etc") == "$conf" ]]; then
		rm -f "$etc"
	fi
	if [[ -d $dir ]]; then
		[[ ! -e $conf ]] || head -n 1 "$conf" | grep -qxF "$marker" || die "$conf was not written by this script; not removing $dir"
		rm -rf "$dir"
	fi
	echo "slurm is down"
}

status() {
	if running; then
		SLURM_CONF=$conf sinfo -N -n "$node"
		return 0
	fi
	echo "slurm is not up (state in $dir)"
	return 1
}

case ${1:-} in
up) up ;;
down) down ;;
status) status ;;
*)
	echo "usage: $0 up|down|status" >&2
	exit 2
	;;
esac
