import json,collections,statistics as st,sys
d=collections.defaultdict(list); res=collections.defaultdict(set)
labs=sys.argv[2].split(",")
for f in ("flat_cub.jsonl","flat_clrdx.jsonl"):
  for l in open(sys.argv[1]+"/"+f):
    r=json.loads(l)
    if "n" not in r: continue
    lab=r.get("label","cub")
    d[(r["op"],r["type"],r["n"],lab)].append(r["call_us"])
    if lab!="cub": res[(r["op"],r["type"],r["n"])].add(str(r.get("result")))
print("| op | type | n | cub | "+" | ".join(labs)+" | "+" | ".join("cub/"+x for x in labs)+" |")
for k in sorted({k[:3] for k in d}):
  if not d[k+(labs[0],)]: continue
  c=st.median(d[k+("cub",)]) if d[k+("cub",)] else float('nan')
  m=[st.median(d[k+(x,)]) for x in labs]
  print("| %s | %s | %d | %.1f | "%k[:1]+ "" if False else "| %s | %s | %d | %.1f | "%(k[0],k[1],k[2],c)+" | ".join("%.1f"%x for x in m)+" | "+" | ".join("%.2f"%(c/x) for x in m)+" |", "" if len(res[k])==1 else "RESULTS DIFFER %s"%res[k])
