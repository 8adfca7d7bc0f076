#!/bin/bash
# runs the two-row experiment and records CPU 1 (the target's) for 15 s in the middle of each run's measured part
cd /work/main
rm -rf /tmp/perf-out
./envbench run /tmp/perf-001.yaml -o /tmp/perf-out > /tmp/perf-run.log 2>&1 &
for n in 1 2; do
  until grep -q "run $n/2:" /tmp/perf-run.log; do sleep 0.5; done
  sleep 20   # start-up and the 10 s warm-up
  env=$(grep "run $n/2:" /tmp/perf-run.log | head -1 | awk '{print $3}' | tr -d ,)
  perf record -q -C 1 -g -o /tmp/perf-$env.data -- sleep 15 2>/dev/null
done
wait
for env in default all-host; do
  perf report -i /tmp/perf-$env.data --stdio --no-children --sort sym 2>/dev/null | grep -v "^$" | grep -v "^ *|" | grep -v "^ *-" | head -60 > /tmp/perf-$env-symbols.txt
  perf report -i /tmp/perf-$env.data --stdio --no-children --sort comm 2>/dev/null | grep "%" | head -20 > /tmp/perf-$env-comm.txt
done
echo PERF-DONE >> /tmp/perf-run.log
