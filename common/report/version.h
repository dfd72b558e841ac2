/*
 * version - the version of spaa-tools, which every program prints with
 * --version and the analyses write in their LAMI metadata.
 */
#ifndef SPAA_VERSION_H
#define SPAA_VERSION_H

#define SPAA_VERSION "0.1.0"
#define SPAA_VERSION_MAJOR 0
#define SPAA_VERSION_MINOR 1
#define SPAA_VERSION_PATCH 0

#endif
