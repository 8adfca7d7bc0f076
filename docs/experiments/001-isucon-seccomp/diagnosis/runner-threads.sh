#!/bin/bash
# per-thread CPU of the runner JVM over 10 s in the middle of each run's measured part
cd /work/main; rm -rf /tmp/perf-out3
./envbench run /tmp/perf-001.yaml -o /tmp/perf-out3 > /tmp/perf-run3.log 2>&1 &
snap() { for t in /proc/$1/task/*; do echo "$(cat $t/comm | tr ' ' _) $(awk '{print $14+$15}' $t/stat)"; done; }
for n in 1 2; do
  until grep -q "run $n/2:" /tmp/perf-run3.log; do sleep 0.5; done
  sleep 20
  env=$(grep "run $n/2:" /tmp/perf-run3.log | head -1 | awk '{print $3}' | tr -d ,)
  r=$(pgrep -f "EnvBenchCli run /tmp/perf-001.yaml")
  snap $r > /tmp/a; sleep 10; snap $r > /tmp/b
  echo "== $env: runner $r threads' CPU over 10 s (% of one core), its CPUs now: $(grep Cpus_allowed_list /proc/$r/status | awk '{print $2}')"
  join <(sort /tmp/a) <(sort /tmp/b) 2>/dev/null | awk '{d=$3-$2; if (d>0) {s+=d; printf "  %-28s %5.1f\n", $1, d/10}} END {printf "  total %5.1f\n", s/10}' | sort -k2 -rn | head -12
done
wait
