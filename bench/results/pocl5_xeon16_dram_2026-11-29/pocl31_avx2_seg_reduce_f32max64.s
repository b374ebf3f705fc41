
/tmp/pcdump/DD/NKCCAHCOHOCEKJDHENFENDIIMBELMCFMJONON/seg_reduce/64-1-1-goffs0-smallgrid/seg_reduce.so:     file format elf64-x86-64


Disassembly of section .text:

0000000000001000 <_pocl_kernel_seg_reduce>:
    1000:	push   %rbp
    1001:	mov    %rsp,%rbp
    1004:	push   %r15
    1006:	push   %r14
    1008:	push   %r13
    100a:	push   %r12
    100c:	push   %rbx
    100d:	and    $0xfffffffffffffff0,%rsp
    1011:	sub    $0x30,%rsp
    1015:	mov    %rcx,0x8(%rsp)
    101a:	cmpl   $0x0,(%r9)
    101e:	je     1032 <_pocl_kernel_seg_reduce+0x32>
    1020:	lea    -0x28(%rbp),%rsp
    1024:	pop    %rbx
    1025:	pop    %r12
    1027:	pop    %r13
    1029:	pop    %r14
    102b:	pop    %r15
    102d:	pop    %rbp
    102e:	vzeroupper
    1031:	ret
    1032:	mov    0x18(%rbp),%rcx
    1036:	shl    $0x6,%rcx
    103a:	lea    0x40(%rdi),%rax
    103e:	mov    %rax,(%rsp)
    1042:	xor    %r15d,%r15d
    1045:	vbroadcastss 0xfb2(%rip),%ymm1        # 2000 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c0>
    104e:	vpbroadcastd 0xfad(%rip),%ymm2        # 2004 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c4>
    1057:	vbroadcastss 0xfa8(%rip),%xmm3        # 2008 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c8>
    1060:	vmovaps %xmm3,0x10(%rsp)
    1066:	jmp    1084 <_pocl_kernel_seg_reduce+0x84>
    1068:	nopl   0x0(%rax,%rax,1)
    1070:	mov    0x8(%rsp),%rax
    1075:	vmovss %xmm6,(%rax,%r10,4)
    107b:	inc    %r15
    107e:	cmp    $0x40,%r15
    1082:	je     1020 <_pocl_kernel_seg_reduce+0x20>
    1084:	lea    (%r15,%rcx,1),%r10
    1088:	cmp    %rdx,%r10
    108b:	jae    107b <_pocl_kernel_seg_reduce+0x7b>
    108d:	mov    (%rsi,%r10,8),%r11
    1091:	mov    0x8(%rsi,%r10,8),%r14
    1096:	mov    %r14,%r12
    1099:	sub    %r11,%r12
    109c:	mov    %r12,%r13
    109f:	and    $0xfffffffffffffff0,%r13
    10a3:	cmp    $0x20,%r13
    10a7:	jae    10d0 <_pocl_kernel_seg_reduce+0xd0>
    10a9:	xor    %r8d,%r8d
    10ac:	vmovaps %ymm1,%ymm5
    10b0:	vmovaps %ymm1,%ymm6
    10b4:	vmovaps %ymm1,%ymm7
    10b8:	vmovaps %ymm1,%ymm8
    10bc:	jmp    118f <_pocl_kernel_seg_reduce+0x18f>
    10c1:	data16 data16 data16 data16 data16 cs nopw 0x0(%rax,%rax,1)
    10d0:	mov    (%rsp),%rax
    10d4:	lea    (%rax,%r11,4),%rax
    10d8:	vbroadcastss 0xf1f(%rip),%ymm5        # 2000 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c0>
    10e1:	xor    %ebx,%ebx
    10e3:	vmovaps %ymm5,%ymm6
    10e7:	vmovaps %ymm5,%ymm7
    10eb:	vmovaps %ymm5,%ymm8
    10ef:	nop
    10f0:	vmovups -0x40(%rax,%rbx,4),%ymm9
    10f6:	vmovups -0x20(%rax,%rbx,4),%ymm10
    10fc:	vmovups (%rax,%rbx,4),%ymm11
    1101:	vmovups 0x20(%rax,%rbx,4),%ymm12
    1107:	vcmpltps %ymm5,%ymm9,%ymm13
    110c:	vcmpltps %ymm6,%ymm10,%ymm14
    1111:	vpaddd %ymm6,%ymm6,%ymm15
    1115:	vpaddd %ymm5,%ymm5,%ymm4
    1119:	vpmaxud %ymm2,%ymm4,%ymm3
    111e:	vpcmpeqd %ymm3,%ymm4,%ymm3
    1122:	vorps  %ymm3,%ymm13,%ymm3
    1126:	vpmaxud %ymm2,%ymm15,%ymm4
    112b:	vpcmpeqd %ymm4,%ymm15,%ymm4
    112f:	vorps  %ymm4,%ymm14,%ymm4
    1133:	vblendvps %ymm3,%ymm5,%ymm9,%ymm5
    1139:	vblendvps %ymm4,%ymm6,%ymm10,%ymm6
    113f:	vcmpltps %ymm7,%ymm11,%ymm3
    1144:	vcmpltps %ymm8,%ymm12,%ymm4
    114a:	vpaddd %ymm8,%ymm8,%ymm9
    114f:	vpaddd %ymm7,%ymm7,%ymm10
    1153:	vpmaxud %ymm2,%ymm10,%ymm13
    1158:	vpcmpeqd %ymm13,%ymm10,%ymm10
    115d:	vorps  %ymm3,%ymm10,%ymm3
    1161:	vpmaxud %ymm2,%ymm9,%ymm10
    1166:	vpcmpeqd %ymm10,%ymm9,%ymm9
    116b:	vorps  %ymm4,%ymm9,%ymm4
    116f:	vblendvps %ymm3,%ymm7,%ymm11,%ymm7
    1175:	vblendvps %ymm4,%ymm8,%ymm12,%ymm8
    117b:	lea    0x20(%rbx),%r8
    117f:	add    $0x40,%rbx
    1183:	cmp    %r13,%rbx
    1186:	mov    %r8,%rbx
    1189:	jbe    10f0 <_pocl_kernel_seg_reduce+0xf0>
    118f:	lea    (%rdi,%r11,4),%rax
    1193:	mov    %r8,%r9
    1196:	or     $0x10,%r9
    119a:	cmp    %r13,%r9
    119d:	ja     11f8 <_pocl_kernel_seg_reduce+0x1f8>
    119f:	nop
    11a0:	vmovups (%rax,%r8,4),%ymm3
    11a6:	vmovups 0x20(%rax,%r8,4),%ymm4
    11ad:	vcmpltps %ymm5,%ymm3,%ymm9
    11b2:	vcmpltps %ymm6,%ymm4,%ymm10
    11b7:	vpaddd %ymm6,%ymm6,%ymm11
    11bb:	vpaddd %ymm5,%ymm5,%ymm12
    11bf:	vpmaxud %ymm2,%ymm12,%ymm13
    11c4:	vpcmpeqd %ymm13,%ymm12,%ymm12
    11c9:	vorps  %ymm12,%ymm9,%ymm9
    11ce:	vpmaxud %ymm2,%ymm11,%ymm12
    11d3:	vpcmpeqd %ymm12,%ymm11,%ymm11
    11d8:	vorps  %ymm11,%ymm10,%ymm10
    11dd:	vblendvps %ymm9,%ymm5,%ymm3,%ymm5
    11e3:	vblendvps %ymm10,%ymm6,%ymm4,%ymm6
    11e9:	mov    %r9,%r8
    11ec:	lea    0x10(%r9),%rbx
    11f0:	mov    %rbx,%r9
    11f3:	cmp    %r13,%rbx
    11f6:	jbe    11a0 <_pocl_kernel_seg_reduce+0x1a0>
    11f8:	vcmpltps %ymm5,%ymm7,%ymm3
    11fd:	vcmpltps %ymm6,%ymm8,%ymm4
    1202:	vpaddd %ymm6,%ymm6,%ymm9
    1206:	vpaddd %ymm5,%ymm5,%ymm10
    120a:	vpmaxud %ymm2,%ymm10,%ymm11
    120f:	vpcmpeqd %ymm11,%ymm10,%ymm10
    1214:	vorps  %ymm3,%ymm10,%ymm3
    1218:	vpmaxud %ymm2,%ymm9,%ymm10
    121d:	vpcmpeqd %ymm10,%ymm9,%ymm9
    1222:	vorps  %ymm4,%ymm9,%ymm4
    1226:	vblendvps %ymm3,%ymm5,%ymm7,%ymm3
    122c:	vblendvps %ymm4,%ymm6,%ymm8,%ymm4
    1232:	vcmpltps %ymm3,%ymm4,%ymm5
    1237:	vpaddd %ymm3,%ymm3,%ymm6
    123b:	vpmaxud %ymm2,%ymm6,%ymm7
    1240:	vpcmpeqd %ymm7,%ymm6,%ymm6
    1244:	vorps  %ymm6,%ymm5,%ymm5
    1248:	vblendvps %ymm5,%ymm3,%ymm4,%ymm3
    124e:	vextractf128 $0x1,%ymm3,%xmm4
    1254:	vcmpltps %xmm3,%xmm4,%xmm5
    1259:	vpaddd %xmm3,%xmm3,%xmm6
    125d:	vpmaxud %xmm2,%xmm6,%xmm7
    1262:	vpcmpeqd %xmm7,%xmm6,%xmm6
    1266:	vorps  %xmm6,%xmm5,%xmm5
    126a:	vblendvps %xmm5,%xmm3,%xmm4,%xmm3
    1270:	vpermilpd $0x1,%xmm3,%xmm4
    1276:	vcmpltps %xmm3,%xmm4,%xmm5
    127b:	vpaddd %xmm3,%xmm3,%xmm6
    127f:	vpminud 0x10(%rsp),%xmm6,%xmm7
    1286:	vpcmpeqd %xmm7,%xmm6,%xmm6
    128a:	vpxor  0xd7e(%rip),%xmm6,%xmm6        # 2010 <_pocl_kernel_seg_reduce_workgroup_fast+0x9d0>
    1292:	vorps  %xmm6,%xmm5,%xmm5
    1296:	vblendvps %xmm5,%xmm3,%xmm4,%xmm5
    129c:	vpermilps $0xf5,%xmm5,%xmm6
    12a2:	vmovd  %xmm5,%ebx
    12a6:	add    %ebx,%ebx
    12a8:	vmovaps %xmm6,%xmm7
    12ac:	cmp    $0xff000001,%ebx
    12b2:	jb     12b8 <_pocl_kernel_seg_reduce+0x2b8>
    12b4:	vmovaps %xmm5,%xmm7
    12b8:	vcmpltss %xmm5,%xmm6,%xmm3
    12bd:	vblendvps %xmm3,%xmm5,%xmm7,%xmm5
    12c3:	jmp    12de <_pocl_kernel_seg_reduce+0x2de>
    12c5:	data16 cs nopw 0x0(%rax,%rax,1)
    12d0:	vcmpltss %xmm5,%xmm6,%xmm3
    12d5:	vblendvps %xmm3,%xmm5,%xmm7,%xmm5
    12db:	inc    %r13
    12de:	cmp    %r12,%r13
    12e1:	jae    1310 <_pocl_kernel_seg_reduce+0x310>
    12e3:	vmovss (%rax,%r13,4),%xmm6
    12e9:	vmovd  %xmm5,%ebx
    12ed:	add    %ebx,%ebx
    12ef:	vmovaps %xmm6,%xmm7
    12f3:	cmp    $0xff000001,%ebx
    12f9:	jb     12d0 <_pocl_kernel_seg_reduce+0x2d0>
    12fb:	vmovaps %xmm5,%xmm7
    12ff:	jmp    12d0 <_pocl_kernel_seg_reduce+0x2d0>
    1301:	data16 data16 data16 data16 data16 cs nopw 0x0(%rax,%rax,1)
    1310:	vmovaps %xmm0,%xmm6
    1314:	cmp    %r11,%r14
    1317:	je     1070 <_pocl_kernel_seg_reduce+0x70>
    131d:	vmovaps %xmm5,%xmm6
    1321:	jmp    1070 <_pocl_kernel_seg_reduce+0x70>
    1326:	cs nopw 0x0(%rax,%rax,1)

0000000000001330 <_pocl_kernel_seg_reduce_workgroup>:
    1330:	push   %rbp
    1331:	push   %r15
    1333:	push   %r14
    1335:	push   %r13
    1337:	push   %r12
    1339:	push   %rbx
    133a:	mov    0x30(%rdi),%rax
    133e:	mov    (%rax),%rax
    1341:	cmpl   $0x0,(%rax)
    1344:	je     1354 <_pocl_kernel_seg_reduce_workgroup+0x24>
    1346:	pop    %rbx
    1347:	pop    %r12
    1349:	pop    %r13
    134b:	pop    %r14
    134d:	pop    %r15
    134f:	pop    %rbp
    1350:	vzeroupper
    1353:	ret
    1354:	mov    (%rdi),%rax
    1357:	mov    0x8(%rdi),%rcx
    135b:	mov    (%rax),%r10
    135e:	mov    (%rcx),%r11
    1361:	mov    0x10(%rdi),%rax
    1365:	mov    (%rax),%r14
    1368:	mov    0x18(%rdi),%rax
    136c:	vmovss (%rax),%xmm0
    1370:	vmovss %xmm0,-0xc(%rsp)
    1376:	mov    0x20(%rdi),%rax
    137a:	mov    (%rax),%r9
    137d:	shl    $0x6,%rdx
    1381:	lea    0x40(%r10),%rax
    1385:	mov    %rax,-0x8(%rsp)
    138a:	xor    %edi,%edi
    138c:	vbroadcastss 0xc6b(%rip),%ymm1        # 2000 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c0>
    1395:	vpbroadcastd 0xc66(%rip),%ymm2        # 2004 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c4>
    139e:	vpbroadcastd 0xc61(%rip),%xmm3        # 2008 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c8>
    13a7:	jmp    13bf <_pocl_kernel_seg_reduce_workgroup+0x8f>
    13a9:	nopl   0x0(%rax)
    13b0:	vmovss %xmm6,(%r9,%r13,4)
    13b6:	inc    %rdi
    13b9:	cmp    $0x40,%rdi
    13bd:	je     1346 <_pocl_kernel_seg_reduce_workgroup+0x16>
    13bf:	lea    (%rdi,%rdx,1),%r13
    13c3:	cmp    %r14,%r13
    13c6:	jae    13b6 <_pocl_kernel_seg_reduce_workgroup+0x86>
    13c8:	mov    (%r11,%r13,8),%r12
    13cc:	mov    0x8(%r11,%r13,8),%r15
    13d1:	mov    %r15,%rsi
    13d4:	sub    %r12,%rsi
    13d7:	mov    %rsi,%rbx
    13da:	and    $0xfffffffffffffff0,%rbx
    13de:	cmp    $0x20,%rbx
    13e2:	jae    1400 <_pocl_kernel_seg_reduce_workgroup+0xd0>
    13e4:	xor    %ebp,%ebp
    13e6:	vmovaps %ymm1,%ymm5
    13ea:	vmovaps %ymm1,%ymm6
    13ee:	vmovaps %ymm1,%ymm7
    13f2:	vmovaps %ymm1,%ymm8
    13f6:	jmp    14bf <_pocl_kernel_seg_reduce_workgroup+0x18f>
    13fb:	nopl   0x0(%rax,%rax,1)
    1400:	mov    -0x8(%rsp),%rax
    1405:	lea    (%rax,%r12,4),%rcx
    1409:	vbroadcastss 0xbee(%rip),%ymm5        # 2000 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c0>
    1412:	xor    %eax,%eax
    1414:	vmovaps %ymm5,%ymm6
    1418:	vmovaps %ymm5,%ymm7
    141c:	vmovaps %ymm5,%ymm8
    1420:	vmovups -0x40(%rcx,%rax,4),%ymm9
    1426:	vmovups -0x20(%rcx,%rax,4),%ymm10
    142c:	vmovups (%rcx,%rax,4),%ymm11
    1431:	vmovups 0x20(%rcx,%rax,4),%ymm12
    1437:	vcmpltps %ymm5,%ymm9,%ymm13
    143c:	vcmpltps %ymm6,%ymm10,%ymm14
    1441:	vpaddd %ymm6,%ymm6,%ymm15
    1445:	vpaddd %ymm5,%ymm5,%ymm4
    1449:	vpmaxud %ymm2,%ymm4,%ymm0
    144e:	vpcmpeqd %ymm0,%ymm4,%ymm0
    1452:	vorps  %ymm0,%ymm13,%ymm0
    1456:	vpmaxud %ymm2,%ymm15,%ymm4
    145b:	vpcmpeqd %ymm4,%ymm15,%ymm4
    145f:	vorps  %ymm4,%ymm14,%ymm4
    1463:	vblendvps %ymm0,%ymm5,%ymm9,%ymm5
    1469:	vblendvps %ymm4,%ymm6,%ymm10,%ymm6
    146f:	vcmpltps %ymm7,%ymm11,%ymm0
    1474:	vcmpltps %ymm8,%ymm12,%ymm4
    147a:	vpaddd %ymm8,%ymm8,%ymm9
    147f:	vpaddd %ymm7,%ymm7,%ymm10
    1483:	vpmaxud %ymm2,%ymm10,%ymm13
    1488:	vpcmpeqd %ymm13,%ymm10,%ymm10
    148d:	vorps  %ymm0,%ymm10,%ymm0
    1491:	vpmaxud %ymm2,%ymm9,%ymm10
    1496:	vpcmpeqd %ymm10,%ymm9,%ymm9
    149b:	vorps  %ymm4,%ymm9,%ymm4
    149f:	vblendvps %ymm0,%ymm7,%ymm11,%ymm7
    14a5:	vblendvps %ymm4,%ymm8,%ymm12,%ymm8
    14ab:	lea    0x20(%rax),%rbp
    14af:	add    $0x40,%rax
    14b3:	cmp    %rbx,%rax
    14b6:	mov    %rbp,%rax
    14b9:	jbe    1420 <_pocl_kernel_seg_reduce_workgroup+0xf0>
    14bf:	lea    (%r10,%r12,4),%rcx
    14c3:	mov    %rbp,%r8
    14c6:	or     $0x10,%r8
    14ca:	cmp    %rbx,%r8
    14cd:	ja     1526 <_pocl_kernel_seg_reduce_workgroup+0x1f6>
    14cf:	nop
    14d0:	vmovups (%rcx,%rbp,4),%ymm0
    14d5:	vmovups 0x20(%rcx,%rbp,4),%ymm4
    14db:	vcmpltps %ymm5,%ymm0,%ymm9
    14e0:	vcmpltps %ymm6,%ymm4,%ymm10
    14e5:	vpaddd %ymm6,%ymm6,%ymm11
    14e9:	vpaddd %ymm5,%ymm5,%ymm12
    14ed:	vpmaxud %ymm2,%ymm12,%ymm13
    14f2:	vpcmpeqd %ymm13,%ymm12,%ymm12
    14f7:	vorps  %ymm12,%ymm9,%ymm9
    14fc:	vpmaxud %ymm2,%ymm11,%ymm12
    1501:	vpcmpeqd %ymm12,%ymm11,%ymm11
    1506:	vorps  %ymm11,%ymm10,%ymm10
    150b:	vblendvps %ymm9,%ymm5,%ymm0,%ymm5
    1511:	vblendvps %ymm10,%ymm6,%ymm4,%ymm6
    1517:	mov    %r8,%rbp
    151a:	lea    0x10(%r8),%rax
    151e:	mov    %rax,%r8
    1521:	cmp    %rbx,%rax
    1524:	jbe    14d0 <_pocl_kernel_seg_reduce_workgroup+0x1a0>
    1526:	vcmpltps %ymm5,%ymm7,%ymm0
    152b:	vcmpltps %ymm6,%ymm8,%ymm4
    1530:	vpaddd %ymm6,%ymm6,%ymm9
    1534:	vpaddd %ymm5,%ymm5,%ymm10
    1538:	vpmaxud %ymm2,%ymm10,%ymm11
    153d:	vpcmpeqd %ymm11,%ymm10,%ymm10
    1542:	vorps  %ymm0,%ymm10,%ymm0
    1546:	vpmaxud %ymm2,%ymm9,%ymm10
    154b:	vpcmpeqd %ymm10,%ymm9,%ymm9
    1550:	vorps  %ymm4,%ymm9,%ymm4
    1554:	vblendvps %ymm0,%ymm5,%ymm7,%ymm0
    155a:	vblendvps %ymm4,%ymm6,%ymm8,%ymm4
    1560:	vcmpltps %ymm0,%ymm4,%ymm5
    1565:	vpaddd %ymm0,%ymm0,%ymm6
    1569:	vpmaxud %ymm2,%ymm6,%ymm7
    156e:	vpcmpeqd %ymm7,%ymm6,%ymm6
    1572:	vorps  %ymm6,%ymm5,%ymm5
    1576:	vblendvps %ymm5,%ymm0,%ymm4,%ymm0
    157c:	vextractf128 $0x1,%ymm0,%xmm4
    1582:	vcmpltps %xmm0,%xmm4,%xmm5
    1587:	vpaddd %xmm0,%xmm0,%xmm6
    158b:	vpmaxud %xmm2,%xmm6,%xmm7
    1590:	vpcmpeqd %xmm7,%xmm6,%xmm6
    1594:	vorps  %xmm6,%xmm5,%xmm5
    1598:	vblendvps %xmm5,%xmm0,%xmm4,%xmm0
    159e:	vpermilpd $0x1,%xmm0,%xmm4
    15a4:	vcmpltps %xmm0,%xmm4,%xmm5
    15a9:	vpaddd %xmm0,%xmm0,%xmm6
    15ad:	vpminud %xmm3,%xmm6,%xmm7
    15b2:	vpcmpeqd %xmm7,%xmm6,%xmm6
    15b6:	vpxor  0xa52(%rip),%xmm6,%xmm6        # 2010 <_pocl_kernel_seg_reduce_workgroup_fast+0x9d0>
    15be:	vorps  %xmm6,%xmm5,%xmm5
    15c2:	vblendvps %xmm5,%xmm0,%xmm4,%xmm5
    15c8:	vpermilps $0xf5,%xmm5,%xmm6
    15ce:	vmovd  %xmm5,%eax
    15d2:	add    %eax,%eax
    15d4:	vmovaps %xmm6,%xmm7
    15d8:	cmp    $0xff000001,%eax
    15dd:	jb     15e3 <_pocl_kernel_seg_reduce_workgroup+0x2b3>
    15df:	vmovaps %xmm5,%xmm7
    15e3:	vcmpltss %xmm5,%xmm6,%xmm0
    15e8:	vblendvps %xmm0,%xmm5,%xmm7,%xmm5
    15ee:	jmp    15fe <_pocl_kernel_seg_reduce_workgroup+0x2ce>
    15f0:	vcmpltss %xmm5,%xmm6,%xmm0
    15f5:	vblendvps %xmm0,%xmm5,%xmm7,%xmm5
    15fb:	inc    %rbx
    15fe:	cmp    %rsi,%rbx
    1601:	jae    1620 <_pocl_kernel_seg_reduce_workgroup+0x2f0>
    1603:	vmovss (%rcx,%rbx,4),%xmm6
    1608:	vmovd  %xmm5,%eax
    160c:	add    %eax,%eax
    160e:	vmovaps %xmm6,%xmm7
    1612:	cmp    $0xff000001,%eax
    1617:	jb     15f0 <_pocl_kernel_seg_reduce_workgroup+0x2c0>
    1619:	vmovaps %xmm5,%xmm7
    161d:	jmp    15f0 <_pocl_kernel_seg_reduce_workgroup+0x2c0>
    161f:	nop
    1620:	vmovss -0xc(%rsp),%xmm6
    1626:	cmp    %r12,%r15
    1629:	je     13b0 <_pocl_kernel_seg_reduce_workgroup+0x80>
    162f:	vmovaps %xmm5,%xmm6
    1633:	jmp    13b0 <_pocl_kernel_seg_reduce_workgroup+0x80>
    1638:	nopl   0x0(%rax,%rax,1)

0000000000001640 <_pocl_kernel_seg_reduce_workgroup_fast>:
    1640:	push   %rbp
    1641:	push   %r15
    1643:	push   %r14
    1645:	push   %r13
    1647:	push   %r12
    1649:	push   %rbx
    164a:	mov    0x30(%rdi),%rax
    164e:	cmpl   $0x0,(%rax)
    1651:	je     1661 <_pocl_kernel_seg_reduce_workgroup_fast+0x21>
    1653:	pop    %rbx
    1654:	pop    %r12
    1656:	pop    %r13
    1658:	pop    %r14
    165a:	pop    %r15
    165c:	pop    %rbp
    165d:	vzeroupper
    1660:	ret
    1661:	mov    (%rdi),%r10
    1664:	mov    0x8(%rdi),%r11
    1668:	mov    0x10(%rdi),%rax
    166c:	mov    (%rax),%r14
    166f:	mov    0x18(%rdi),%rax
    1673:	vmovss (%rax),%xmm0
    1677:	vmovss %xmm0,-0xc(%rsp)
    167d:	mov    0x20(%rdi),%r9
    1681:	shl    $0x6,%rdx
    1685:	lea    0x40(%r10),%rax
    1689:	mov    %rax,-0x8(%rsp)
    168e:	xor    %edi,%edi
    1690:	vbroadcastss 0x967(%rip),%ymm1        # 2000 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c0>
    1699:	vpbroadcastd 0x962(%rip),%ymm2        # 2004 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c4>
    16a2:	vpbroadcastd 0x95d(%rip),%xmm3        # 2008 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c8>
    16ab:	jmp    16bf <_pocl_kernel_seg_reduce_workgroup_fast+0x7f>
    16ad:	nopl   (%rax)
    16b0:	vmovss %xmm6,(%r9,%r13,4)
    16b6:	inc    %rdi
    16b9:	cmp    $0x40,%rdi
    16bd:	je     1653 <_pocl_kernel_seg_reduce_workgroup_fast+0x13>
    16bf:	lea    (%rdi,%rdx,1),%r13
    16c3:	cmp    %r14,%r13
    16c6:	jae    16b6 <_pocl_kernel_seg_reduce_workgroup_fast+0x76>
    16c8:	mov    (%r11,%r13,8),%r12
    16cc:	mov    0x8(%r11,%r13,8),%r15
    16d1:	mov    %r15,%rsi
    16d4:	sub    %r12,%rsi
    16d7:	mov    %rsi,%rbx
    16da:	and    $0xfffffffffffffff0,%rbx
    16de:	cmp    $0x20,%rbx
    16e2:	jae    1700 <_pocl_kernel_seg_reduce_workgroup_fast+0xc0>
    16e4:	xor    %ebp,%ebp
    16e6:	vmovaps %ymm1,%ymm5
    16ea:	vmovaps %ymm1,%ymm6
    16ee:	vmovaps %ymm1,%ymm7
    16f2:	vmovaps %ymm1,%ymm8
    16f6:	jmp    17bf <_pocl_kernel_seg_reduce_workgroup_fast+0x17f>
    16fb:	nopl   0x0(%rax,%rax,1)
    1700:	mov    -0x8(%rsp),%rax
    1705:	lea    (%rax,%r12,4),%rcx
    1709:	vbroadcastss 0x8ee(%rip),%ymm5        # 2000 <_pocl_kernel_seg_reduce_workgroup_fast+0x9c0>
    1712:	xor    %eax,%eax
    1714:	vmovaps %ymm5,%ymm6
    1718:	vmovaps %ymm5,%ymm7
    171c:	vmovaps %ymm5,%ymm8
    1720:	vmovups -0x40(%rcx,%rax,4),%ymm9
    1726:	vmovups -0x20(%rcx,%rax,4),%ymm10
    172c:	vmovups (%rcx,%rax,4),%ymm11
    1731:	vmovups 0x20(%rcx,%rax,4),%ymm12
    1737:	vcmpltps %ymm5,%ymm9,%ymm13
    173c:	vcmpltps %ymm6,%ymm10,%ymm14
    1741:	vpaddd %ymm6,%ymm6,%ymm15
    1745:	vpaddd %ymm5,%ymm5,%ymm4
    1749:	vpmaxud %ymm2,%ymm4,%ymm0
    174e:	vpcmpeqd %ymm0,%ymm4,%ymm0
    1752:	vorps  %ymm0,%ymm13,%ymm0
    1756:	vpmaxud %ymm2,%ymm15,%ymm4
    175b:	vpcmpeqd %ymm4,%ymm15,%ymm4
    175f:	vorps  %ymm4,%ymm14,%ymm4
    1763:	vblendvps %ymm0,%ymm5,%ymm9,%ymm5
    1769:	vblendvps %ymm4,%ymm6,%ymm10,%ymm6
    176f:	vcmpltps %ymm7,%ymm11,%ymm0
    1774:	vcmpltps %ymm8,%ymm12,%ymm4
    177a:	vpaddd %ymm8,%ymm8,%ymm9
    177f:	vpaddd %ymm7,%ymm7,%ymm10
    1783:	vpmaxud %ymm2,%ymm10,%ymm13
    1788:	vpcmpeqd %ymm13,%ymm10,%ymm10
    178d:	vorps  %ymm0,%ymm10,%ymm0
    1791:	vpmaxud %ymm2,%ymm9,%ymm10
    1796:	vpcmpeqd %ymm10,%ymm9,%ymm9
    179b:	vorps  %ymm4,%ymm9,%ymm4
    179f:	vblendvps %ymm0,%ymm7,%ymm11,%ymm7
    17a5:	vblendvps %ymm4,%ymm8,%ymm12,%ymm8
    17ab:	lea    0x20(%rax),%rbp
    17af:	add    $0x40,%rax
    17b3:	cmp    %rbx,%rax
    17b6:	mov    %rbp,%rax
    17b9:	jbe    1720 <_pocl_kernel_seg_reduce_workgroup_fast+0xe0>
    17bf:	lea    (%r10,%r12,4),%rcx
    17c3:	mov    %rbp,%r8
    17c6:	or     $0x10,%r8
    17ca:	cmp    %rbx,%r8
    17cd:	ja     1826 <_pocl_kernel_seg_reduce_workgroup_fast+0x1e6>
    17cf:	nop
    17d0:	vmovups (%rcx,%rbp,4),%ymm0
    17d5:	vmovups 0x20(%rcx,%rbp,4),%ymm4
    17db:	vcmpltps %ymm5,%ymm0,%ymm9
    17e0:	vcmpltps %ymm6,%ymm4,%ymm10
    17e5:	vpaddd %ymm6,%ymm6,%ymm11
    17e9:	vpaddd %ymm5,%ymm5,%ymm12
    17ed:	vpmaxud %ymm2,%ymm12,%ymm13
    17f2:	vpcmpeqd %ymm13,%ymm12,%ymm12
    17f7:	vorps  %ymm12,%ymm9,%ymm9
    17fc:	vpmaxud %ymm2,%ymm11,%ymm12
    1801:	vpcmpeqd %ymm12,%ymm11,%ymm11
    1806:	vorps  %ymm11,%ymm10,%ymm10
    180b:	vblendvps %ymm9,%ymm5,%ymm0,%ymm5
    1811:	vblendvps %ymm10,%ymm6,%ymm4,%ymm6
    1817:	mov    %r8,%rbp
    181a:	lea    0x10(%r8),%rax
    181e:	mov    %rax,%r8
    1821:	cmp    %rbx,%rax
    1824:	jbe    17d0 <_pocl_kernel_seg_reduce_workgroup_fast+0x190>
    1826:	vcmpltps %ymm5,%ymm7,%ymm0
    182b:	vcmpltps %ymm6,%ymm8,%ymm4
    1830:	vpaddd %ymm6,%ymm6,%ymm9
    1834:	vpaddd %ymm5,%ymm5,%ymm10
    1838:	vpmaxud %ymm2,%ymm10,%ymm11
    183d:	vpcmpeqd %ymm11,%ymm10,%ymm10
    1842:	vorps  %ymm0,%ymm10,%ymm0
    1846:	vpmaxud %ymm2,%ymm9,%ymm10
    184b:	vpcmpeqd %ymm10,%ymm9,%ymm9
    1850:	vorps  %ymm4,%ymm9,%ymm4
    1854:	vblendvps %ymm0,%ymm5,%ymm7,%ymm0
    185a:	vblendvps %ymm4,%ymm6,%ymm8,%ymm4
    1860:	vcmpltps %ymm0,%ymm4,%ymm5
    1865:	vpaddd %ymm0,%ymm0,%ymm6
    1869:	vpmaxud %ymm2,%ymm6,%ymm7
    186e:	vpcmpeqd %ymm7,%ymm6,%ymm6
    1872:	vorps  %ymm6,%ymm5,%ymm5
    1876:	vblendvps %ymm5,%ymm0,%ymm4,%ymm0
    187c:	vextractf128 $0x1,%ymm0,%xmm4
    1882:	vcmpltps %xmm0,%xmm4,%xmm5
    1887:	vpaddd %xmm0,%xmm0,%xmm6
    188b:	vpmaxud %xmm2,%xmm6,%xmm7
    1890:	vpcmpeqd %xmm7,%xmm6,%xmm6
    1894:	vorps  %xmm6,%xmm5,%xmm5
    1898:	vblendvps %xmm5,%xmm0,%xmm4,%xmm0
    189e:	vpermilpd $0x1,%xmm0,%xmm4
    18a4:	vcmpltps %xmm0,%xmm4,%xmm5
    18a9:	vpaddd %xmm0,%xmm0,%xmm6
    18ad:	vpminud %xmm3,%xmm6,%xmm7
    18b2:	vpcmpeqd %xmm7,%xmm6,%xmm6
    18b6:	vpxor  0x752(%rip),%xmm6,%xmm6        # 2010 <_pocl_kernel_seg_reduce_workgroup_fast+0x9d0>
    18be:	vorps  %xmm6,%xmm5,%xmm5
    18c2:	vblendvps %xmm5,%xmm0,%xmm4,%xmm5
    18c8:	vpermilps $0xf5,%xmm5,%xmm6
    18ce:	vmovd  %xmm5,%eax
    18d2:	add    %eax,%eax
    18d4:	vmovaps %xmm6,%xmm7
    18d8:	cmp    $0xff000001,%eax
    18dd:	jb     18e3 <_pocl_kernel_seg_reduce_workgroup_fast+0x2a3>
    18df:	vmovaps %xmm5,%xmm7
    18e3:	vcmpltss %xmm5,%xmm6,%xmm0
    18e8:	vblendvps %xmm0,%xmm5,%xmm7,%xmm5
    18ee:	jmp    18fe <_pocl_kernel_seg_reduce_workgroup_fast+0x2be>
    18f0:	vcmpltss %xmm5,%xmm6,%xmm0
    18f5:	vblendvps %xmm0,%xmm5,%xmm7,%xmm5
    18fb:	inc    %rbx
    18fe:	cmp    %rsi,%rbx
    1901:	jae    1920 <_pocl_kernel_seg_reduce_workgroup_fast+0x2e0>
    1903:	vmovss (%rcx,%rbx,4),%xmm6
    1908:	vmovd  %xmm5,%eax
    190c:	add    %eax,%eax
    190e:	vmovaps %xmm6,%xmm7
    1912:	cmp    $0xff000001,%eax
    1917:	jb     18f0 <_pocl_kernel_seg_reduce_workgroup_fast+0x2b0>
    1919:	vmovaps %xmm5,%xmm7
    191d:	jmp    18f0 <_pocl_kernel_seg_reduce_workgroup_fast+0x2b0>
    191f:	nop
    1920:	vmovss -0xc(%rsp),%xmm6
    1926:	cmp    %r12,%r15
    1929:	je     16b0 <_pocl_kernel_seg_reduce_workgroup_fast+0x70>
    192f:	vmovaps %xmm5,%xmm6
    1933:	jmp    16b0 <_pocl_kernel_seg_reduce_workgroup_fast+0x70>
