export const id=538;export const ids=[538];export const modules={6858:(e,t,n)=>{n.d(t,{H:()=>o,s:()=>s});let o=4;async function s(e,t,n){let o=Array(e.length),s=0,r=Array.from({length:Math.min(Math.max(1,t),e.length)},async()=>{for(;s<e.length;){let t=s++;o[t]=await n(e[t],t)}});return await Promise.all(r),o}},5898:(e,t,n)=>{n.d(t,{j:()=>o});function o(e,t,n,o){let s=e.filter(e=>!!e?.createdAt),r=s.filter(e=>e.afterCommit?.oid===t).map(e=>e.createdAt).sort();return r.length>0?{at:r.at(-1),by:"force-push"}:0===s.length&&1===n?{at:o,by:"opening"}:null}},5951:(e,t,n)=>{n.d(t,{Ve:()=>r,lH:()=>i,nS:()=>l,ts:()=>a,vZ:()=>u});var o=n(3116),s=n(48);async function r(e,t,n,a,i=()=>void 0){let l=a?{...t,state:"all",since:a,per_page:100}:{...t,state:n.state,per_page:100,...n.labels.length>0?{labels:n.labels.join(",")}:{},...null!==n.milestone?{milestone:n.milestone}:{}},u=[],m=null;return await (0,o.FH)(a?`listing issues updated since ${a}`:"listing issues",async()=>{for await(let t of e.paginate.iterator(e.rest.issues.listForRepo,l)){for(let e of(m??=function(e){let t=e.date;if("string"!=typeof t)return null;let n=Date.parse(t);return Number.isNaN(n)?null:new Date(n).toISOString().replace(".000Z","Z")}(t.headers),t.data))e.pull_request||u.push({item:(0,s.q9)(e,[]),commentCount:e.comments??0,updatedAt:e.updated_at??""});i(u.length)}}),{issues:u,serverTime:m}}async function a(e,t,n){let o={state:n.state,labels:[],milestone:void 0===n.milestone?null:String(n.milestone)};return(await r(e,t,o,null)).issues.map(e=>e.item)}async function i(e,t,n=()=>void 0){let r=[];return await (0,o.FH)("listing the repository comments",async()=>{for await(let o of e.paginate.iterator(e.rest.issues.listCommentsForRepo,{...t,per_page:100})){for(let e of o.data)r.push({...(0,s.T5)(e),issue:Number(/\/issues\/(\d+)$/.exec(e.issue_url)?.[1]??0)});n(r.length)}}),r}async function l(e,t,n){let s=new Set;return await (0,o.FH)(`listing the comments changed since ${n}`,async()=>{for await(let o of e.paginate.iterator(e.rest.issues.listCommentsForRepo,{...t,since:n,per_page:100}))for(let e of o.data)s.add(Number(/\/issues\/(\d+)$/.exec(e.issue_url)?.[1]??0))}),s}function u(e){return e.reduce((e,t)=>e+Math.ceil(t/100),0)}},3508:(e,t,n)=>{n.d(t,{qN:()=>y,u4:()=>R,vn:()=>P,y_:()=>b});var o=n(8338),s=n(185),r=n(5898),a=n(3116),i=n(6088),l=n(7742),u=n(3191);let m="status { contexts { context state description targetUrl createdAt } }",p=`${u.rZ} state stateReason milestone { number title } repository { nameWithOwner }`,c=`fragment GatePull on PullRequest {
  ${u.rZ}
  state headRefName headRefOid baseRefName headRepository { nameWithOwner }
  milestone { number title }
  reviews(first: 100) { ${u.KL} nodes { ${u.nb} } }
  commits(last: 1) { totalCount }
  timelineItems(last: 50, itemTypes: [HEAD_REF_FORCE_PUSHED_EVENT]) {
    nodes { __typename ... on HeadRefForcePushedEvent { createdAt afterCommit { oid } } }
  }
  closingIssuesReferences(first: ${u.fh}) { totalCount nodes { ${p} } }
  linked: closingIssuesReferences(first: ${u.fh}, userLinkedOnly: true) { totalCount nodes { number repository { nameWithOwner } } }
  headCommit: commits(last: 1) { nodes { commit { oid ${m} } } }
}`,d=`query ForgeGateIssue($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  viewer ${u.W1}
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    issue(number: $number) { ${p} }
  }
}`;async function f(e,t,n,o,s,r){let l=await (0,a.FH)(`reading ${t}`,()=>(0,i.g)(e.graphql(n,o),e=>s.push(...e.map(e=>`GitHub could not show part of ${t}: ${e}`))));return r.requests++,r.points+=l.rateLimit?.cost??0,l}function h(e){let t=new Map;for(let n of e?.contexts??[])t.set(n.context.toLowerCase(),{state:n.state.toLowerCase(),description:n.description??"",context:n.context,targetUrl:n.targetUrl??null,createdAt:n.createdAt??null});return t}let g=(e,t)=>`${e.toLowerCase()}#${t}`,w=e=>(e?.nodes??[]).some(e=>null===e);function $(e,t){let n=e.repository?.nameWithOwner??t,o=(0,u.jC)(e,"issue",n.toLowerCase()===t.toLowerCase()?null:n);return e.state&&(o.state=e.state.toLowerCase()),e.stateReason&&(o.stateReason=e.stateReason.toLowerCase()),e.milestone&&(o.milestone={number:e.milestone.number,title:e.milestone.title}),o}async function y(e,t,n,a=[],p=!1,d=!1){let b={pulls:new Map,commits:new Map,open:null,viewer:null,incomplete:new Set,notes:[],requests:0,points:0},R=[...new Set(n)],C=[];for(let e=0;e<R.length;e+=10)C.push(R.slice(e,e+10));for(let[n,y]of(0===C.length&&C.push([]),C.entries())){let R=0===n?[...new Set(a.map(e=>e.toLowerCase()))]:[],C={owner:t.owner,repo:t.repo};y.forEach((e,t)=>{C[`p${t}`]=e}),R.forEach((e,t)=>{C[`c${t}`]=e});let P=y.length>0?`PR ${y.map(e=>`#${e}`).join(", ")}`:"the commits asked about",O=await f(e,P,function(e,t,n,o=!1){let s=["$owner: String!","$repo: String!",...Array.from({length:e},(e,t)=>`$p${t}: Int!`),...Array.from({length:t},(e,t)=>`$c${t}: GitObjectID!`)],r=[...Array.from({length:e},(e,t)=>`p${t}: pullRequest(number: $p${t}) { ...GatePull }`),...Array.from({length:t},(e,t)=>`c${t}: object(oid: $c${t}) { __typename ... on Commit { oid ${m} } }`)],a=n?`openPulls: pullRequests(states: OPEN, first: 100) { totalCount nodes { number headRefOid authorAssociation author ${u.W1} } }`:"";return`query ForgeGate(${s.join(", ")}) {
  rateLimit { cost remaining }
  viewer ${u.W1}
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    defaultBranchRef { name }
    ${o?l.U3:""}
    ${a}
    ${r.join("\n    ")}
  }
}
${e>0?c:""}`}(y.length,R.length,p&&0===n,d&&0===n),C,b.notes,b);b.viewer??=(0,i.Q)(O.viewer);let I=O.repository,N=I?.nameWithOwner??(0,s.Q)(t),v=I?.defaultBranchRef?.name??null;for(let[t,s]of(d&&0===n&&(b.pipeline=(0,l.ZF)(I?.pipelineFile,v)),y.entries())){let n=I?.[`p${t}`]??null;if(null===n){b.pulls.set(s,null);continue}let a=await async function(e,t,n,s,a){let i=(0,u.jC)(t,"pull",null);i.state="OPEN"===t.state?"open":"closed",t.milestone&&(i.milestone={number:t.milestone.number,title:t.milestone.title}),w(t.comments)&&a.add(g(n,t.number)),await (0,u.og)(e,t,i,s);let l=[...(0,u.Nh)(t.reviews),...t.reviews?.pageInfo.hasNextPage?await (0,u.Cc)(e,t.id,t.reviews,!0,s):[]];w(t.reviews)&&a.add(g(n,t.number));let m=l.filter(e=>(e.body??"")!=="").map(e=>({...(0,u.T5)(e),createdAt:e.submittedAt??null,review:{state:e.state,commit:e.commit?.oid??null,submitted:!!e.submittedAt&&"PENDING"!==e.state}})),p={number:t.number,head:t.headRefName??"",sha:t.headRefOid??"",state:"OPEN"===t.state?"open":"closed",base:t.baseRefName??"",headRepository:t.headRepository?.nameWithOwner??null,closes:(0,o.a)(t.body??"",n).filter(e=>e!==t.number),nodeId:t.id},c=new Map;for(let o of(0,u.Nh)(t.closingIssuesReferences)){let t=$(o,n);w(o.comments)&&a.add(g(o.repository?.nameWithOwner??n,o.number)),await (0,u.og)(e,o,t,s),c.set(g(o.repository?.nameWithOwner??n,o.number),t)}let d=e=>({repository:e.repository.nameWithOwner,number:e.number}),f=(0,u.Nh)(t.closingIssuesReferences).map(e=>d({number:e.number,repository:e.repository??{nameWithOwner:n}})),y=(0,u.Nh)(t.linked).map(d),b=(t.closingIssuesReferences?.totalCount??0)<=u.fh&&(t.linked?.totalCount??0)<=u.fh&&!w(t.closingIssuesReferences)&&!w(t.linked),R=new Set(y.map(e=>g(e.repository,e.number))),C=b?{linked:y,keyword:f.filter(e=>!R.has(g(e.repository,e.number))),defaultBranch:null,notes:[]}:null,P=(0,u.Nh)(t.headCommit).find(e=>e.commit?.oid===t.headRefOid);return{thread:i,reviews:m,info:p,links:C,closing:c,headSince:(0,r.j)(t.timelineItems?.nodes??[],t.headRefOid,t.commits?.totalCount,t.createdAt),statuses:h(P?.commit.status??null)}}(e,n,N,b,b.incomplete);a.links&&(a.links.defaultBranch=v),b.pulls.set(s,a)}for(let[e,t]of R.entries()){let n=I?.[`c${e}`]??null;b.commits.set(t,n?.__typename==="Commit"?h(n.status??null):null)}I?.openPulls&&(b.open={heads:(0,u.Nh)(I.openPulls).map(e=>({number:e.number,sha:e.headRefOid,author:{login:(0,i.Q)(e.author),association:e.authorAssociation??"NONE"}})),complete:I.openPulls.totalCount<=100})}return b}async function b(e,t,n){let o=[],r={requests:0,points:0},a=await f(e,`#${n}`,d,{owner:t.owner,repo:t.repo,number:n},o,r),l=a.repository?.issue??null,m=(0,i.Q)(a.viewer);if(null===l)return{item:null,viewer:m,incomplete:!1,notes:o,...r};let p=$(l,a.repository?.nameWithOwner??(0,s.Q)(t)),c=w(l.comments);return await (0,u.og)(e,l,p,r),{item:p,viewer:m,incomplete:c,notes:o,...r}}function R(e){return{...e,labels:[...e.labels],comments:e.comments.map(e=>({...e}))}}let C=`query ForgeThreadBefore($id: ID!, $before: String!) {
  rateLimit { cost remaining }
  node(id: $id) {
    ... on Issue { comments(last: 100, before: $before) { pageInfo { hasPreviousPage startCursor } nodes { ${u.YK} } } }
    ... on PullRequest { comments(last: 100, before: $before) { pageInfo { hasPreviousPage startCursor } nodes { ${u.YK} } } }
  }
}`;async function P(e,t,n,o=()=>!1,r){let i,m=[],p={requests:0,points:0},c=await f(e,`#${n}`,(i=void 0!==r,`query ForgeThread($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    ${i?`defaultBranchRef { name } ${l.U3}`:""}
    issueOrPullRequest(number: $number) {
      __typename
      ... on Issue {
        ${u.rZ} state stateReason milestone { number title }
        tail: comments(last: 100) { totalCount pageInfo { hasPreviousPage startCursor } nodes { ${u.YK} } }
      }
      ... on PullRequest {
        ${u.rZ} pullState: state milestone { number title }
        tail: comments(last: 100) { totalCount pageInfo { hasPreviousPage startCursor } nodes { ${u.YK} } }
      }
    }
  }
}`),{owner:t.owner,repo:t.repo,number:n},m,p);r?.((0,l.ZF)(c.repository?.pipelineFile,c.repository?.defaultBranchRef?.name??null));let d=c.repository?.issueOrPullRequest??null;if(null===d)return{item:null,complete:!0,notes:m,...p};let h=c.repository?.nameWithOwner??(0,s.Q)(t),g="PullRequest"===d.__typename?(0,u.jC)(d,"pull",null):$(d,h);"PullRequest"===d.__typename&&(g.state="OPEN"===d.pullState?"open":"closed");let w=new Set(g.comments.map(e=>e.nodeId)),y=[],b=e=>{let t=(0,u.Nh)(e).filter(e=>!w.has(e.id));for(let e of t)w.add(e.id);y.unshift(...t.map(u.T5))};b(d.tail);let R=d.tail,O=()=>w.size>=(d.tail?.totalCount??0);for(;!O()&&R.pageInfo.hasPreviousPage&&R.pageInfo.startCursor&&!o([...g.comments,...y]);){let t=R.pageInfo.startCursor,o=await (0,a.FH)(`reading more comments of #${n}`,()=>e.graphql(C,{id:d.id,before:t}));if(p.requests++,p.points+=o.rateLimit?.cost??0,!o.node?.comments)break;b(R=o.node.comments)}return g.comments.push(...y),{item:g,complete:O(),notes:m,...p}}}};