/* <remote_servers> and <macros> of config.xml, as ClickHouse reads them (Cluster.cpp):
 *
 *   <remote_servers><NAME>
 *     <secret>…</secret>                       optional, inter-server authentication
 *     <shard>                                  repeats (any element name starting "shard")
 *       <weight>1</weight> <internal_replication>false</internal_replication>
 *       <replica><host/><port/><user/><password/><secure/><default_database/><priority/></replica>
 *     </shard>
 *     <node>…</node>                           a shard of one replica (replica's elements)
 *   </NAME></remote_servers>
 *   <macros><shard>01</shard><replica>a</replica></macros>
 *
 * Ownership: the set is new (storage/cluster.h). Errors: -1 with err_set naming the
 * cluster and element (NO_ELEMENTS_IN_CONFIG for a replica without host,
 * UNKNOWN_ELEMENT_IN_CONFIG, INVALID_CONFIG_PARAMETER). */
#ifndef SHALE_SERVER_CLUSTER_CONFIG_H
#define SHALE_SERVER_CLUSTER_CONFIG_H

#include "server/config.h"
#include "storage/cluster.h"

/* The clusters and macros of c; tcp_port is this server's native port (is_local). */
int cluster_config_load(const config *c, int tcp_port, cluster_set **out);

#endif
