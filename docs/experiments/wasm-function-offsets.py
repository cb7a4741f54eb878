# The byte offset of each function body's first instruction in a wasm file, as JSON [[index, offset], …]:
# where a DevTools breakpoint goes (docs/size.md, "The dead effect, found"). usage: wasm-function-offsets.py in.wasm out.json
import sys,json
def uleb(b,i):
    r=0;s=0
    while True:
        x=b[i];i+=1;r|=(x&0x7f)<<s;s+=7
        if x<0x80: return r,i
def offsets(path):
    b=open(path,'rb').read(); i=8; nimp=0; res=[]
    while i<len(b):
        sid=b[i];i+=1;size,i=uleb(b,i);end=i+size
        if sid==2:
            n,j=uleb(b,i)
            for _ in range(n):
                l,j=uleb(b,j);j+=l;l,j=uleb(b,j);j+=l
                kind=b[j];j+=1
                if kind==0: nimp+=1; _,j=uleb(b,j)
                elif kind==1: j+=1; fl=b[j];j+=1; _,j=uleb(b,j); 
                elif kind==2: fl=b[j];j+=1; _,j=uleb(b,j); 
                elif kind==3: j+=2
                else: raise Exception(kind)
                if kind==1 and fl&1: _,j=uleb(b,j)
                if kind==2 and fl&1: _,j=uleb(b,j)
        if sid==10:
            n,j=uleb(b,i)
            for k in range(n):
                sz,j=uleb(b,j); bend=j+sz
                nl,jj=uleb(b,j)
                for _ in range(nl):
                    _,jj=uleb(b,jj); jj+=1
                res.append((nimp+k,jj))
                j=bend
        i=end
    return res
r=offsets(sys.argv[1])
print(len(r), r[:3], file=sys.stderr)
json.dump(r,open(sys.argv[2],'w'))
