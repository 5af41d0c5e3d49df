export const id=538;export const ids=[538];export const modules={6858:(e,t,n)=>{n.d(t,{H:()=>o,s:()=>s});let o=4;async function s(e,t,n){let o=Array(e.length),s=0,r=Array.from({length:Math.min(Math.max(1,t),e.length)},async()=>{for(;s<e.length;){let t=s++;o[t]=await n(e[t],t)}});return await Promise.all(r),o}},5951:(e,t,n)=>{n.d(t,{Ve:()=>r,lH:()=>i,nS:()=>l,ts:()=>a,vZ:()=>u});var o=n(3116),s=n(48);async function r(e,t,n,a,i=()=>void 0){let l=a?{...t,state:"all",since:a,per_page:100}:{...t,state:n.state,per_page:100,...n.labels.length>0?{labels:n.labels.join(",")}:{},...null!==n.milestone?{milestone:n.milestone}:{}},u=[],m=null;return await (0,o.FH)(a?`listing issues updated since ${a}`:"listing issues",async()=>{for await(let t of e.paginate.iterator(e.rest.issues.listForRepo,l)){for(let e of(m??=function(e){let t=e.date;if("string"!=typeof t)return null;let n=Date.parse(t);return Number.isNaN(n)?null:new Date(n).toISOString().replace(".000Z","Z")}(t.headers),t.data))e.pull_request||u.push({item:(0,s.q9)(e,[]),commentCount:e.comments??0,updatedAt:e.updated_at??""});i(u.length)}}),{issues:u,serverTime:m}}async function a(e,t,n){let o={state:n.state,labels:[],milestone:void 0===n.milestone?null:String(n.milestone)};return(await r(e,t,o,null)).issues.map(e=>e.item)}async function i(e,t,n=()=>void 0){let r=[];return await (0,o.FH)("listing the repository comments",async()=>{for await(let o of e.paginate.iterator(e.rest.issues.listCommentsForRepo,{...t,per_page:100})){for(let e of o.data)r.push({...(0,s.T5)(e),issue:Number(/\/issues\/(\d+)$/.exec(e.issue_url)?.[1]??0)});n(r.length)}}),r}async function l(e,t,n){let s=new Set;return await (0,o.FH)(`listing the comments changed since ${n}`,async()=>{for await(let o of e.paginate.iterator(e.rest.issues.listCommentsForRepo,{...t,since:n,per_page:100}))for(let e of o.data)s.add(Number(/\/issues\/(\d+)$/.exec(e.issue_url)?.[1]??0))}),s}function u(e){return e.reduce((e,t)=>e+Math.ceil(t/100),0)}},3508:(e,t,n)=>{n.d(t,{qN:()=>$,u4:()=>b,vn:()=>C,y_:()=>y});var o=n(8338),s=n(185),r=n(3116),a=n(6088),i=n(7742),l=n(3191);let u="status { contexts { context state description targetUrl createdAt } }",m=`${l.rZ} state stateReason milestone { number title } repository { nameWithOwner }`,p=`fragment GatePull on PullRequest {
  ${l.rZ}
  state headRefName headRefOid baseRefName headRepository { nameWithOwner }
  milestone { number title }
  reviews(first: 100) { ${l.KL} nodes { ${l.nb} } }
  commits(last: 1) { totalCount }
  timelineItems(last: 50, itemTypes: [HEAD_REF_FORCE_PUSHED_EVENT]) {
    nodes { __typename ... on HeadRefForcePushedEvent { createdAt afterCommit { oid } } }
  }
  closingIssuesReferences(first: ${l.fh}) { totalCount nodes { ${m} } }
  linked: closingIssuesReferences(first: ${l.fh}, userLinkedOnly: true) { totalCount nodes { number repository { nameWithOwner } } }
  headCommit: commits(last: 1) { nodes { commit { oid ${u} } } }
}`,c=`query ForgeGateIssue($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  viewer ${l.W1}
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    issue(number: $number) { ${m} }
  }
}`;async function d(e,t,n,o,s,i){let l=await (0,r.FH)(`reading ${t}`,()=>(0,a.g)(e.graphql(n,o),e=>s.push(...e.map(e=>`GitHub could not show part of ${t}: ${e}`))));return i.requests++,i.points+=l.rateLimit?.cost??0,l}function f(e){let t=new Map;for(let n of e?.contexts??[])t.set(n.context.toLowerCase(),{state:n.state.toLowerCase(),description:n.description??"",context:n.context,targetUrl:n.targetUrl??null,createdAt:n.createdAt??null});return t}let h=(e,t)=>`${e.toLowerCase()}#${t}`,w=e=>(e?.nodes??[]).some(e=>null===e);function g(e,t){let n=e.repository?.nameWithOwner??t,o=(0,l.jC)(e,"issue",n.toLowerCase()===t.toLowerCase()?null:n);return e.state&&(o.state=e.state.toLowerCase()),e.stateReason&&(o.stateReason=e.stateReason.toLowerCase()),e.milestone&&(o.milestone={number:e.milestone.number,title:e.milestone.title}),o}async function $(e,t,n,r=[],m=!1,c=!1){let y={pulls:new Map,commits:new Map,open:null,viewer:null,incomplete:new Set,notes:[],requests:0,points:0},b=[...new Set(n)],R=[];for(let e=0;e<b.length;e+=10)R.push(b.slice(e,e+10));for(let[n,$]of(0===R.length&&R.push([]),R.entries())){let b=0===n?[...new Set(r.map(e=>e.toLowerCase()))]:[],R={owner:t.owner,repo:t.repo};$.forEach((e,t)=>{R[`p${t}`]=e}),b.forEach((e,t)=>{R[`c${t}`]=e});let C=$.length>0?`PR ${$.map(e=>`#${e}`).join(", ")}`:"the commits asked about",P=await d(e,C,function(e,t,n,o=!1){let s=["$owner: String!","$repo: String!",...Array.from({length:e},(e,t)=>`$p${t}: Int!`),...Array.from({length:t},(e,t)=>`$c${t}: GitObjectID!`)],r=[...Array.from({length:e},(e,t)=>`p${t}: pullRequest(number: $p${t}) { ...GatePull }`),...Array.from({length:t},(e,t)=>`c${t}: object(oid: $c${t}) { __typename ... on Commit { oid ${u} } }`)],a=n?`openPulls: pullRequests(states: OPEN, first: 100) { totalCount nodes { number headRefOid authorAssociation author ${l.W1} } }`:"";return`query ForgeGate(${s.join(", ")}) {
  rateLimit { cost remaining }
  viewer ${l.W1}
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    defaultBranchRef { name }
    ${o?i.U3:""}
    ${a}
    ${r.join("\n    ")}
  }
}
${e>0?p:""}`}($.length,b.length,m&&0===n,c&&0===n),R,y.notes,y);y.viewer??=(0,a.Q)(P.viewer);let O=P.repository,I=O?.nameWithOwner??(0,s.Q)(t),N=O?.defaultBranchRef?.name??null;for(let[t,s]of(c&&0===n&&(y.pipeline=(0,i.ZF)(O?.pipelineFile,N)),$.entries())){let n=O?.[`p${t}`]??null;if(null===n){y.pulls.set(s,null);continue}let r=await async function(e,t,n,s,r){let a,i,u=(0,l.jC)(t,"pull",null);u.state="OPEN"===t.state?"open":"closed",t.milestone&&(u.milestone={number:t.milestone.number,title:t.milestone.title}),w(t.comments)&&r.add(h(n,t.number)),await (0,l.og)(e,t,u,s);let m=[...(0,l.Nh)(t.reviews),...t.reviews?.pageInfo.hasNextPage?await (0,l.Cc)(e,t.id,t.reviews,!0,s):[]];w(t.reviews)&&r.add(h(n,t.number));let p=m.filter(e=>(e.body??"")!=="").map(e=>({...(0,l.T5)(e),createdAt:e.submittedAt??null,review:{state:e.state,commit:e.commit?.oid??null,submitted:!!e.submittedAt&&"PENDING"!==e.state}})),c={number:t.number,head:t.headRefName??"",sha:t.headRefOid??"",state:"OPEN"===t.state?"open":"closed",base:t.baseRefName??"",headRepository:t.headRepository?.nameWithOwner??null,closes:(0,o.a)(t.body??"",n).filter(e=>e!==t.number),nodeId:t.id},d=new Map;for(let o of(0,l.Nh)(t.closingIssuesReferences)){let t=g(o,n);w(o.comments)&&r.add(h(o.repository?.nameWithOwner??n,o.number)),await (0,l.og)(e,o,t,s),d.set(h(o.repository?.nameWithOwner??n,o.number),t)}let $=e=>({repository:e.repository.nameWithOwner,number:e.number}),y=(0,l.Nh)(t.closingIssuesReferences).map(e=>$({number:e.number,repository:e.repository??{nameWithOwner:n}})),b=(0,l.Nh)(t.linked).map($),R=(t.closingIssuesReferences?.totalCount??0)<=l.fh&&(t.linked?.totalCount??0)<=l.fh&&!w(t.closingIssuesReferences)&&!w(t.linked),C=new Set(b.map(e=>h(e.repository,e.number))),P=R?{linked:b,keyword:y.filter(e=>!C.has(h(e.repository,e.number))),defaultBranch:null,notes:[]}:null,O=(0,l.Nh)(t.headCommit).find(e=>e.commit?.oid===t.headRefOid);return{thread:u,reviews:p,info:c,links:P,closing:d,headSince:(i=(a=(t.timelineItems?.nodes??[]).filter(e=>!!e?.createdAt)).filter(e=>e.afterCommit?.oid===t.headRefOid).map(e=>e.createdAt).sort()).length>0?i.at(-1)??null:0===a.length&&t.commits?.totalCount===1?t.createdAt:null,statuses:f(O?.commit.status??null)}}(e,n,I,y,y.incomplete);r.links&&(r.links.defaultBranch=N),y.pulls.set(s,r)}for(let[e,t]of b.entries()){let n=O?.[`c${e}`]??null;y.commits.set(t,n?.__typename==="Commit"?f(n.status??null):null)}O?.openPulls&&(y.open={heads:(0,l.Nh)(O.openPulls).map(e=>({number:e.number,sha:e.headRefOid,author:{login:(0,a.Q)(e.author),association:e.authorAssociation??"NONE"}})),complete:O.openPulls.totalCount<=100})}return y}async function y(e,t,n){let o=[],r={requests:0,points:0},i=await d(e,`#${n}`,c,{owner:t.owner,repo:t.repo,number:n},o,r),u=i.repository?.issue??null,m=(0,a.Q)(i.viewer);if(null===u)return{item:null,viewer:m,incomplete:!1,notes:o,...r};let p=g(u,i.repository?.nameWithOwner??(0,s.Q)(t)),f=w(u.comments);return await (0,l.og)(e,u,p,r),{item:p,viewer:m,incomplete:f,notes:o,...r}}function b(e){return{...e,labels:[...e.labels],comments:e.comments.map(e=>({...e}))}}let R=`query ForgeThreadBefore($id: ID!, $before: String!) {
  rateLimit { cost remaining }
  node(id: $id) {
    ... on Issue { comments(last: 100, before: $before) { pageInfo { hasPreviousPage startCursor } nodes { ${l.YK} } } }
    ... on PullRequest { comments(last: 100, before: $before) { pageInfo { hasPreviousPage startCursor } nodes { ${l.YK} } } }
  }
}`;async function C(e,t,n,o=()=>!1,a){let u,m=[],p={requests:0,points:0},c=await d(e,`#${n}`,(u=void 0!==a,`query ForgeThread($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    ${u?`defaultBranchRef { name } ${i.U3}`:""}
    issueOrPullRequest(number: $number) {
      __typename
      ... on Issue {
        ${l.rZ} state stateReason milestone { number title }
        tail: comments(last: 100) { totalCount pageInfo { hasPreviousPage startCursor } nodes { ${l.YK} } }
      }
      ... on PullRequest {
        ${l.rZ} pullState: state milestone { number title }
        tail: comments(last: 100) { totalCount pageInfo { hasPreviousPage startCursor } nodes { ${l.YK} } }
      }
    }
  }
}`),{owner:t.owner,repo:t.repo,number:n},m,p);a?.((0,i.ZF)(c.repository?.pipelineFile,c.repository?.defaultBranchRef?.name??null));let f=c.repository?.issueOrPullRequest??null;if(null===f)return{item:null,complete:!0,notes:m,...p};let h=c.repository?.nameWithOwner??(0,s.Q)(t),w="PullRequest"===f.__typename?(0,l.jC)(f,"pull",null):g(f,h);"PullRequest"===f.__typename&&(w.state="OPEN"===f.pullState?"open":"closed");let $=new Set(w.comments.map(e=>e.nodeId)),y=[],b=e=>{let t=(0,l.Nh)(e).filter(e=>!$.has(e.id));for(let e of t)$.add(e.id);y.unshift(...t.map(l.T5))};b(f.tail);let P=f.tail,O=()=>$.size>=(f.tail?.totalCount??0);for(;!O()&&P.pageInfo.hasPreviousPage&&P.pageInfo.startCursor&&!o([...w.comments,...y]);){let t=P.pageInfo.startCursor,o=await (0,r.FH)(`reading more comments of #${n}`,()=>e.graphql(R,{id:f.id,before:t}));if(p.requests++,p.points+=o.rateLimit?.cost??0,!o.node?.comments)break;b(P=o.node.comments)}return w.comments.push(...y),{item:w,complete:O(),notes:m,...p}}}};