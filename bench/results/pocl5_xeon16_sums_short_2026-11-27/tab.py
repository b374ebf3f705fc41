import json,sys,statistics,collections
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    r=json.loads(l)
    if "layout" in r: d[(r["op"],r["type"],r["layout"],r.get("label","?"))].append(r["GBps"])
labs=sys.argv[2].split(",")
med=lambda v: statistics.median(v) if v else float("nan")
print("| op | type | layout | "+" | ".join(labs)+" | "+" | ".join(l+"/"+labs[0] for l in labs[1:])+" |")
print("|"+" --- |"*(3+2*len(labs)-1))
for k in sorted({k[:3] for k in d}):
    m=[med(d.get(k+(l,),[])) for l in labs]
    print("| %s | %s | %s | "%k+" | ".join("%.1f"%x for x in m)+" | "+" | ".join("%.2f"%(x/m[0]) for x in m[1:])+" |")
