// What tool plugins' views (plugins/<id>/web/) may use: the tool API client and the custom view's props.
export { toolFetch } from './api'
export type { ToolViewProps } from './customViews'
