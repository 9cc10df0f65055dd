// Lazy loading of the locale tables: a change of blogharvest's copy (see
// ../../BLOGHARVEST.md). Upstream builds every locale in init functions,
// which cost every program that links the package about 0.5 s of CPU and
// 78 MB of allocations at start-up; here a file's locales (a language and
// its regional variants, whose parents are always in the same file) are
// built at the first GetLocaleData of one of them.

package data

import "sync"

var (
	loadMu sync.Mutex
	loaded = map[*func()]bool{}
)

// loadFile runs a locale file's init function once. Its key is the
// function variable's address (functions are not comparable).
func loadFile(init *func()) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if !loaded[init] {
		loaded[init] = true
		(*init)()
	}
}

// The init function of each locale file, by variable.
var (
	file_af       = init_af
	file_agq      = init_agq
	file_ak       = init_ak
	file_am       = init_am
	file_ar       = init_ar
	file_as       = init_as
	file_asa      = init_asa
	file_ast      = init_ast
	file_az_cyrl  = init_az_cyrl
	file_az_latn  = init_az_latn
	file_az       = init_az
	file_bas      = init_bas
	file_be       = init_be
	file_bem      = init_bem
	file_bez      = init_bez
	file_bg       = init_bg
	file_bm       = init_bm
	file_bn       = init_bn
	file_bo       = init_bo
	file_br       = init_br
	file_brx      = init_brx
	file_bs_cyrl  = init_bs_cyrl
	file_bs_latn  = init_bs_latn
	file_bs       = init_bs
	file_ca       = init_ca
	file_ce       = init_ce
	file_cgg      = init_cgg
	file_chr      = init_chr
	file_ckb      = init_ckb
	file_cs       = init_cs
	file_cy       = init_cy
	file_da       = init_da
	file_dav      = init_dav
	file_de       = init_de
	file_dje      = init_dje
	file_dsb      = init_dsb
	file_dua      = init_dua
	file_dyo      = init_dyo
	file_dz       = init_dz
	file_ebu      = init_ebu
	file_ee       = init_ee
	file_el       = init_el
	file_en       = init_en
	file_eo       = init_eo
	file_es       = init_es
	file_et       = init_et
	file_eu       = init_eu
	file_ewo      = init_ewo
	file_fa       = init_fa
	file_ff       = init_ff
	file_fi       = init_fi
	file_fil      = init_fil
	file_fo       = init_fo
	file_fr       = init_fr
	file_fur      = init_fur
	file_fy       = init_fy
	file_ga       = init_ga
	file_gd       = init_gd
	file_gl       = init_gl
	file_gsw      = init_gsw
	file_gu       = init_gu
	file_guz      = init_guz
	file_gv       = init_gv
	file_ha       = init_ha
	file_haw      = init_haw
	file_he       = init_he
	file_hi       = init_hi
	file_hr       = init_hr
	file_hsb      = init_hsb
	file_hu       = init_hu
	file_hy       = init_hy
	file_id       = init_id
	file_ig       = init_ig
	file_ii       = init_ii
	file_is       = init_is
	file_it       = init_it
	file_ja       = init_ja
	file_jgo      = init_jgo
	file_jmc      = init_jmc
	file_ka       = init_ka
	file_kab      = init_kab
	file_kam      = init_kam
	file_kde      = init_kde
	file_kea      = init_kea
	file_khq      = init_khq
	file_ki       = init_ki
	file_kk       = init_kk
	file_kl       = init_kl
	file_kln      = init_kln
	file_km       = init_km
	file_kn       = init_kn
	file_ko       = init_ko
	file_kok      = init_kok
	file_ks       = init_ks
	file_ksb      = init_ksb
	file_ksf      = init_ksf
	file_ksh      = init_ksh
	file_kw       = init_kw
	file_ky       = init_ky
	file_lag      = init_lag
	file_lb       = init_lb
	file_lg       = init_lg
	file_lkt      = init_lkt
	file_ln       = init_ln
	file_lo       = init_lo
	file_lrc      = init_lrc
	file_lt       = init_lt
	file_lu       = init_lu
	file_luo      = init_luo
	file_luy      = init_luy
	file_lv       = init_lv
	file_mas      = init_mas
	file_mer      = init_mer
	file_mfe      = init_mfe
	file_mg       = init_mg
	file_mgh      = init_mgh
	file_mgo      = init_mgo
	file_mk       = init_mk
	file_ml       = init_ml
	file_mn       = init_mn
	file_mr       = init_mr
	file_ms       = init_ms
	file_mt       = init_mt
	file_mua      = init_mua
	file_my       = init_my
	file_mzn      = init_mzn
	file_naq      = init_naq
	file_nb       = init_nb
	file_nd       = init_nd
	file_ne       = init_ne
	file_nl       = init_nl
	file_nmg      = init_nmg
	file_nn       = init_nn
	file_nnh      = init_nnh
	file_nus      = init_nus
	file_nyn      = init_nyn
	file_om       = init_om
	file_or       = init_or
	file_os       = init_os
	file_pa_arab  = init_pa_arab
	file_pa_guru  = init_pa_guru
	file_pa       = init_pa
	file_pl       = init_pl
	file_ps       = init_ps
	file_pt       = init_pt
	file_qu       = init_qu
	file_rm       = init_rm
	file_rn       = init_rn
	file_ro       = init_ro
	file_rof      = init_rof
	file_ru       = init_ru
	file_rw       = init_rw
	file_rwk      = init_rwk
	file_sah      = init_sah
	file_saq      = init_saq
	file_sbp      = init_sbp
	file_se       = init_se
	file_seh      = init_seh
	file_ses      = init_ses
	file_sg       = init_sg
	file_shi_latn = init_shi_latn
	file_shi_tfng = init_shi_tfng
	file_shi      = init_shi
	file_si       = init_si
	file_sk       = init_sk
	file_sl       = init_sl
	file_smn      = init_smn
	file_sn       = init_sn
	file_so       = init_so
	file_sq       = init_sq
	file_sr_cyrl  = init_sr_cyrl
	file_sr_latn  = init_sr_latn
	file_sr       = init_sr
	file_sv       = init_sv
	file_sw       = init_sw
	file_ta       = init_ta
	file_te       = init_te
	file_teo      = init_teo
	file_th       = init_th
	file_ti       = init_ti
	file_tl       = init_tl
	file_to       = init_to
	file_tr       = init_tr
	file_twq      = init_twq
	file_tzm      = init_tzm
	file_ug       = init_ug
	file_uk       = init_uk
	file_ur       = init_ur
	file_uz_arab  = init_uz_arab
	file_uz_cyrl  = init_uz_cyrl
	file_uz_latn  = init_uz_latn
	file_uz       = init_uz
	file_vi       = init_vi
	file_vun      = init_vun
	file_wae      = init_wae
	file_xog      = init_xog
	file_yav      = init_yav
	file_yi       = init_yi
	file_yo       = init_yo
	file_yue      = init_yue
	file_zgh      = init_zgh
	file_zh_hans  = init_zh_hans
	file_zh_hant  = init_zh_hant
	file_zh       = init_zh
	file_zu       = init_zu
)
