#!/bin/bash
# Is the containers' cost the CPU controller's groups? A switch in the middle of each run of perf-experiment.yaml
# (JMeter on CPU 0, the three tiers on CPU 1): in `default` (all on the host) each tier's processes move into a cpu
# cgroup of its own, as Docker gives each container; in `all-host` (each tier in a container, host networking) the
# containers' processes move into the root cpu cgroup, where host processes are. Requests per second over the 10 s
# before and after each switch (from the run's JTL), and CPU 1's context switches over 5 s on each side. The cgroups
# made here are removed at the end (their processes ended with their run). `cgroup-ab.sh sham` does all the same but
# moves nothing: the control, what the 10 s after that point give without a switch. `cgroup-ab.sh shared` moves the
# host's three tiers into one cpu cgroup together (as a pod's containers share their parent), the containers as above:
# if three groups cost and one does not, the cost is scheduling between groups, not being in a group.
set -u
mode=${1:-}
sham=; [ "$mode" = sham ] && sham=1
cd /work/main; out=/tmp/cgroup-ab; rm -rf $out /tmp/cgroup-ab.moves
CG=/sys/fs/cgroup/cpu
./envbench run /tmp/perf-001.yaml -o $out > /tmp/cgroup-ab.log 2>&1 &
runner=$!
tiers() { # PID and tier of each process isolation confined to CPU 1 (the target's), by its command's name
  for s in /proc/[0-9]*/status; do
    p=${s#/proc/}; p=${p%/status}
    grep -q "^Cpus_allowed_list:[[:space:]]*1$" $s 2>/dev/null || continue
    case "$(cat /proc/$p/comm)" in mariadbd) echo "$p db" ;; nginx) echo "$p web" ;; java) echo "$p app" ;; esac
  done
}
switches() { perf stat -C 1 -e context-switches -x, -- sleep 5 2>&1 >/dev/null | awk -F, '/context-switches/ {print $1}'; }
for env in default all-host; do
  # the first sample (a JMeter started ahead writes its JTL's header long before its load)
  until [ -f $out/jtl/$env-r1.jtl ] && [ "$(head -c 4096 $out/jtl/$env-r1.jtl | wc -l)" -ge 2 ]; do sleep 0.2; done
  sleep 10   # the warm-up
  before_cs=$(switches)
  sleep 5
  at=$(date +%s%3N)
  tiers > /tmp/cgroup-ab-$env.pids
  while read -r p tier; do
    if [ -n "$sham" ]; then
      :
    elif [ $env = default ] && [ "$mode" = shared ]; then
      mkdir -p $CG/envbench-diag-shared && echo $p > $CG/envbench-diag-shared/cgroup.procs
    elif [ $env = default ]; then
      mkdir -p $CG/envbench-diag-$tier && echo $p > $CG/envbench-diag-$tier/cgroup.procs
    else
      echo $p > $CG/cgroup.procs
    fi
  done < /tmp/cgroup-ab-$env.pids
  sleep 1
  after_cs=$(switches)
  echo "$env $at $before_cs $after_cs $(awk '{print $2}' /tmp/cgroup-ab-$env.pids | sort | uniq -c | tr '\n' ' ')" >> /tmp/cgroup-ab.moves
done
wait $runner
for t in web app db shared; do [ -d $CG/envbench-diag-$t ] && rmdir $CG/envbench-diag-$t; done
rm -f /tmp/cgroup-ab.out
while read -r env at bcs acs counts; do
  f=$out/jtl/$env-r1.jtl.gz
  zcat $f | awk -F, -v sham="$sham" -v mode="$mode" -v at=$at -v env=$env -v bcs=$bcs -v acs=$acs -v counts="$counts" 'NR > 1 {
      t = $1 + $2   # the sample end
      if (t >= at - 10000 && t < at) b++
      if (t >= at + 1000 && t < at + 11000) a++
    } END {
      what = sham != "" ? "nothing moved (the control)" : env == "default" ? (mode == "shared" ? "the three tiers into one cpu cgroup" : "each tier into a cpu cgroup of its own") : "the containers into the root cpu cgroup"
      printf "%-9s %-40s before %6.0f/s  after %6.0f/s  (%+.1f%%)  context switches on CPU 1 a request: %.2f -> %.2f  [moved: %s]\n",
        env, what, b / 10, a / 10, 100 * (a - b) / b, bcs / 5 / (b / 10), acs / 5 / (a / 10), counts
    }' >> /tmp/cgroup-ab.out
done < /tmp/cgroup-ab.moves
cat /tmp/cgroup-ab.out
