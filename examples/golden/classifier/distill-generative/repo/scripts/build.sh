#!/bin/sh
cargo build
