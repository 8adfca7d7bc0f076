#!/bin/bash
# The runner JVM's own threads' CPU over 10 s in the middle of each run's measured part, each thread by its id (two
# threads of one name are two lines), and, over the same 10 s, who ran on CPU 1 (the target's): perf record -C 1,
# each thread named with its process's command line.
cd /work/main; rm -rf /tmp/perf-out3
./envbench run /tmp/perf-001.yaml -o /tmp/perf-out3 > /tmp/perf-run3.log 2>&1 &
snap() { for t in /proc/$1/task/*; do echo "$(basename $t) $(awk '{print $14+$15}' $t/stat) $(tr ' ' _ < $t/comm)"; done | sort; }
for n in 1 2; do
  until grep -q "run $n/2:" /tmp/perf-run3.log; do sleep 0.5; done
  sleep 20
  env=$(grep "run $n/2:" /tmp/perf-run3.log | head -1 | awk '{print $3}' | tr -d ,)
  r=$(pgrep -f "EnvBenchCli run /tmp/perf-001.yaml" | head -1)
  snap $r > /tmp/a
  perf record -q -C 1 -o /tmp/perf-who-$env.data -- sleep 10 2>/dev/null
  snap $r > /tmp/b
  ps -eLo tid,pid,args --no-headers > /tmp/ps-$env.txt
  echo "== $env: runner $r, its threads' CPU over 10 s (% of one core, thread id and name), its CPUs: $(grep Cpus_allowed_list /proc/$r/status | awk '{print $2}')"
  join /tmp/a /tmp/b | awk '{d=$4-$2; s+=d; if (d>0) printf "  %-8s %-18s %5.1f\n", $1, $3, d/10} END {printf "  total             %5.1f\n", s/10}' | sort -k3 -rn | head -12
  echo "   on CPU 1 over the same 10 s (share of the CPU's samples; thread, name, its process):"
  perf report -i /tmp/perf-who-$env.data --stdio --no-children --sort pid 2>/dev/null | grep "%" | head -12 |
    while read pct tidcomm; do tid=${tidcomm%%:*}; echo "  $pct $tidcomm  [$(awk -v t=$tid '$1==t {$1=""; print substr($0, 1, 90)}' /tmp/ps-$env.txt)]"; done
done
wait
